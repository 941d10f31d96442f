import type { WebSocket } from 'ws';

/** The parts of the `ws` receiver that say whether it is in the middle of a frame or message. */
interface ReceiverView {
  _state?: number;
  _bufferedBytes?: number;
  _fragments?: unknown[];
}

/**
 * Drops a socket that leaves a frame (or a fragmented message) incomplete for `ms`: otherwise a
 * client announcing 100 bytes and sending 3 holds the connection and its buffers forever. Sockets
 * that are merely quiet are left alone; an idle session ends by the session's inactivity expiry.
 */
export function timeOutIncompleteFrames(ws: WebSocket, socket: NodeJS.EventEmitter, ms: number): void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const clear = (): void => {
    if (timer) clearTimeout(timer);
    timer = undefined;
  };
  // Added after the socket's own listener, so the receiver has read the chunk when this runs.
  socket.on('data', () => {
    if (!midFrame(ws)) return clear();
    timer ??= setTimeout(() => ws.terminate(), ms);
    timer.unref();
  });
  ws.once('close', clear);
}

function midFrame(ws: WebSocket): boolean {
  const receiver = (ws as unknown as { _receiver?: ReceiverView | null })._receiver;
  if (!receiver) return false;
  return (receiver._bufferedBytes ?? 0) > 0 || (receiver._state ?? 0) !== 0 || (receiver._fragments?.length ?? 0) > 0;
}
