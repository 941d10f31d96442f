import * as vscode from 'vscode';
import type { ChatLine, ChatSnapshot } from '../../../src/protocol/chat';
import { until } from '../until';

/** What Open Chat returns: the panel, as the integration suites drive it (the webview posts the same commands). */
export interface ChatPanelHandle {
  readonly panel: vscode.WebviewPanel;
  readonly conversationId: string | undefined;
  snapshot(inspectorLimit?: number): ChatSnapshot;
  send(text: string, custom?: Record<string, unknown>): Promise<void>;
  typing(typing: boolean): Promise<void>;
  fix(lineId: string): Promise<void>;
  restart(): Promise<void>;
  endSession(): Promise<void>;
  save(): Promise<vscode.Uri | undefined>;
  copyConversationId(): Promise<string | undefined>;
  sendExternalEvent(): Promise<{ eventId?: string; status: string } | undefined>;
  scroll(to: 'top' | 'bottom'): void;
  readonly directChannel: { open: boolean; url?: string };
  dropDirectChannel(): void;
  onDidPaint: vscode.Event<{ rev: number; at: number; inPage?: number; elements: number }>;
  onDidNotify: vscode.Event<{ type: string }>;
  dispose(): void;
}

export async function openChat(args: Record<string, unknown>): Promise<ChatPanelHandle> {
  const panel = await vscode.commands.executeCommand<ChatPanelHandle | undefined>('agentWorkbench.openChat', args);
  if (!panel) throw new Error('Open Chat did not open a panel');
  return panel;
}

export const byRole = (p: ChatPanelHandle, role: ChatLine['role']) => p.snapshot().lines.filter((l) => l.role === role);
/** Complete agent answers (not still streaming). */
export const answers = (p: ChatPanelHandle) => byRole(p, 'agent').filter((l) => !l.streaming);

/** The session id of a messaging panel, from its inspector. */
export function sessionIdOf(p: ChatPanelHandle): string {
  const entry = p.snapshot(Number.MAX_SAFE_INTEGER).inspector.find((e) => e.label === 'session');
  if (!entry) throw new Error('no session in the inspector');
  return (JSON.parse(entry.json) as { session_id: string }).session_id;
}

/**
 * Waits for the agent's greeting (the first complete answer). A failure says what the panel showed: its status,
 * its lines and the inspector's last entries, so a greeting that never came can be told from a slow one.
 */
export function greeted(p: ChatPanelHandle, what = 'the greeting', timeoutMs = 20_000): Promise<true> {
  return until(what, () => answers(p).length === 1, {
    timeoutMs,
    detail: () => {
      const s = p.snapshot(Number.MAX_SAFE_INTEGER);
      const last = s.inspector.slice(-8).map((e) => `${e.label} ${e.json.slice(0, 200)}`);
      return `status ${JSON.stringify(s.status)}; lines ${JSON.stringify(s.lines.map((l) => [l.role, l.text.slice(0, 60), l.streaming ?? false]))}; inspector ${JSON.stringify(last)}`;
    },
  });
}
