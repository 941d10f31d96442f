import { type Guard, isRecord, type NoRequests } from '../../src/protocol/envelope';
import { Host } from './host';

/**
 * The webview side of a panel that shows one view model sent whole (see src/ui/panels/viewPanel.ts):
 * checks each view with the panel's guard, keeps the newest for a restore, shows the kept one when the panel
 * comes back (once the page's module has run), reports the page's own failures to the host's log, then says ready.
 */
export function startViewApp<V, C extends { type: string }>(
  isView: Guard<V>,
  show: (view: V) => void,
): { command(c: C | { type: 'problem'; message: string }): void } {
  const isViewNotification = (v: unknown): v is { type: 'view'; view: V } =>
    isRecord(v) && v.type === 'view' && isView(v.view);
  const host = new Host<C | { type: 'problem'; message: string }, NoRequests, { type: 'view'; view: V }>(
    isViewNotification,
    (n) => {
      host.state = n.view;
      try {
        show(n.view);
      } catch (err) {
        report(err);
      }
    },
    {},
  );
  const report = (what: unknown) =>
    host.command({
      type: 'problem',
      message: String(what instanceof Error ? `${what.message} ${what.stack ?? ''}` : what).slice(0, 4000),
    });
  window.addEventListener('error', (e) => report(e.error ?? e.message));
  window.addEventListener('unhandledrejection', (e) => report(e.reason));
  // The page's module finishes first: its `show` may send commands through what this returns, which the
  // module holds only once this has returned (a tab hidden and shown again, moved or reloaded shows the kept view).
  queueMicrotask(() => {
    const kept = host.state;
    if (isView(kept)) {
      try {
        show(kept);
      } catch (err) {
        report(err);
      }
    }
    host.ready();
  });
  return { command: (c) => host.command(c) };
}
