import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { WebSocketServer } from 'ws';
import { AccessToken } from '../../../src/client/accessToken';
import { MessagingSession } from '../../../src/client/messagingSession';

describe('messaging session: a socket that is closing', () => {
  it('[MSG-26] a message sent while the server is going away waits for the reconnect, and the editor stays responsive', async () => {
    // A server that sends its close frame but is slow to finish the TCP close: the socket sits in CLOSING.
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise((r) => wss.once('listening', r));
    wss.on('connection', (ws) => {
      const joined = {
        id: 'e1',
        type: 'EVENT_TYPE_VIRTUAL_AGENT_JOINED',
        timestamp: new Date().toISOString(),
        payload: {},
        metadata: { position: 0 },
      };
      ws.send(
        JSON.stringify({
          id: 'b1',
          type: 'EVENT_TYPE_EVENT_BATCH',
          timestamp: new Date().toISOString(),
          payload: { events: [joined], cursor: 1 },
          metadata: {},
        }),
      );
      setTimeout(() => {
        ws.close(1001, 'going away');
        (ws as unknown as { _socket: { pause(): void } })._socket.pause();
      }, 50);
    });
    const port = (wss.address() as AddressInfo).port;
    const session = new MessagingSession({
      messagingUrl: `http://127.0.0.1:${port}`,
      sessionId: 's1',
      accessToken: new AccessToken('tok-secret-123', 600),
      heartbeatMs: 0,
    });
    try {
      await session.connect();
      await new Promise((r) => setTimeout(r, 150));
      void session.sendMessage('hello').catch(() => undefined);
      // The send must not spin: a timer set now still fires.
      const fired = await Promise.race([
        new Promise((r) => setTimeout(() => r(true), 200)),
        new Promise((r) => setTimeout(() => r(false), 2000).unref()),
      ]);
      assert.equal(fired, true);
    } finally {
      session.close();
      for (const c of wss.clients) c.terminate();
      wss.close();
    }
  });
});
