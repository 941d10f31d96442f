import { randomBytes } from 'node:crypto';
import {
  type Guard,
  isCommand,
  isReady,
  isRequest,
  PROTOCOL_VERSION,
  type RequestMap,
  type RequestOf,
} from '../../protocol/envelope';

/** What a panel's page is written from: the app's script, the webview's resource origin, the page's socket if any. */
export interface PanelPageParts {
  /** The address of the app's one script (dist/webview/<app>.js, as the webview serves it). */
  script: string;
  /** The webview's `cspSource`: where its styles, fonts and images may come from. */
  cspSource: string;
  /** The editor's language, for the page's `lang`. */
  language: string;
  /** The page's own socket (see DirectChannel): its origin is the one place the page may connect to. */
  channel?: { origin: string; url: string };
}

/**
 * A panel's page: a content security policy that lets in nothing by default, the app's one module script by a
 * nonce made for this page (no inline or eval script, no other script source), styles, fonts and images from
 * the webview's own resources, and a connection only to the page's own socket.
 */
export function panelPage(parts: PanelPageParts): string {
  const nonce = randomBytes(16).toString('base64');
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${parts.cspSource}`,
    `font-src ${parts.cspSource}`,
    `img-src ${parts.cspSource} data:`,
    ...(parts.channel ? [`connect-src ${parts.channel.origin}`] : []),
  ].join('; ');
  const direct = parts.channel
    ? `\n<meta name="agent-workbench-direct" content="${parts.channel.url.replace(/[^A-Za-z0-9:/._~%-]/g, '')}">`
    : '';
  return `<!DOCTYPE html>
<html lang="${parts.language.replace(/[^A-Za-z0-9-]/g, '')}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">${direct}
</head>
<body>
<div id="app"></div>
<script type="module" nonce="${nonce}" src="${parts.script.replace(/"/g, '%22')}"></script>
</body>
</html>`;
}

/** A message from a panel's page, as read: the handshake, a command or a request that passed its guard, or refused. */
export type WebviewMessage<C, R> =
  | { kind: 'ready'; socketClosed: boolean }
  /** A page of another build (restored after an update): it is written anew, nothing it says is trusted. */
  | { kind: 'otherProtocol'; protocol: number }
  | { kind: 'command'; command: C }
  | { kind: 'request'; id: number; request: R }
  | { kind: 'refused'; reason: string };

/** The guards a panel reads its page's messages with: its protocol's commands and requests. */
export interface PanelGuards<C, M extends RequestMap> {
  isCommand: Guard<C>;
  isRequest: Guard<RequestOf<M>>;
}

/**
 * Reads a message from a panel's page: nothing reaches a panel but what passed its protocol's guards. The reason
 * of a refusal names the message's kind and type only, never its content.
 */
export function readWebviewMessage<C, M extends RequestMap>(
  message: unknown,
  guards: PanelGuards<C, M>,
): WebviewMessage<C, RequestOf<M>> {
  if (isReady(message))
    return message.protocol === PROTOCOL_VERSION
      ? { kind: 'ready', socketClosed: message.socketClosed === true }
      : { kind: 'otherProtocol', protocol: message.protocol };
  if (isCommand(guards.isCommand)(message)) return { kind: 'command', command: message.command };
  if (isRequest(guards.isRequest)(message)) return { kind: 'request', id: message.id, request: message.request };
  return { kind: 'refused', reason: `an unexpected message from the webview was ignored: ${describeMessage(message)}` };
}

/** A short, safe description of a refused message for the log (its kind and type, never its content). */
export function describeMessage(message: unknown): string {
  if (typeof message !== 'object' || message === null) return typeof message;
  const m = message as Record<string, unknown>;
  const inner = (m.command ?? m.request) as Record<string, unknown> | undefined;
  return `kind ${String(m.kind)}${inner && typeof inner === 'object' ? `, type ${String(inner.type)}` : ''}`;
}
