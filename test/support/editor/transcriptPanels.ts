import * as vscode from 'vscode';
import type {
  ConversationDetail,
  ConversationFilters,
  ConversationRow,
  DetailStatus,
  FindResult,
  ListStatus,
  TranscriptsCommand,
  TranscriptsRequest,
} from '../../../src/protocol/transcripts';
import { until } from '../until';
import type { ConversationRequest } from '../../../src/localPlatform/adminApi';
import type { LoggedRequest } from '../../../src/localPlatform/requestLog';
import type { LocalAdmin } from '../localAdmin';

/** What Open Conversations returns: the list panel, as the suites drive it (the webview posts the same commands). */
export interface ListHandle {
  readonly panel: vscode.WebviewPanel;
  shownRows(): readonly ConversationRow[];
  status(): ListStatus;
  readonly currentFilters: ConversationFilters;
  apply(filters: ConversationFilters): Promise<void>;
  loadMore(): Promise<void>;
  reveal(revealed: boolean): void;
  open(conversationId: string, toSide?: boolean): Promise<unknown>;
  /** As the page commands and asks. */
  command(c: TranscriptsCommand): Promise<void>;
  request(r: TranscriptsRequest): Promise<unknown>;
  onDidPaint: vscode.Event<{ seq: number; at: number; elements: number }>;
  onDidNotify: vscode.Event<{ type: string; seq?: number }>;
  dispose(): void;
}

/** What Open Conversation returns: one conversation's panel. */
export interface DetailHandle {
  readonly panel: vscode.WebviewPanel;
  readonly conversationId: string;
  readonly shown: ConversationDetail | undefined;
  readonly status: DetailStatus;
  readonly loaded: Promise<void>;
  find(text: string): FindResult | undefined;
  reveal(revealed: boolean): void;
  refresh(): Promise<void>;
  onDidPaint: vscode.Event<{ seq: number; at: number; elements: number }>;
  onDidNotify: vscode.Event<{ type: string; seq?: number }>;
  dispose(): void;
}

export async function openList(args: Record<string, unknown>): Promise<ListHandle> {
  const p = await vscode.commands.executeCommand<ListHandle | undefined>('agentWorkbench.openConversations', args);
  if (!p) throw new Error('Open Conversations did not open a panel');
  return p;
}

export async function openDetail(args: Record<string, unknown>): Promise<DetailHandle> {
  const p = await vscode.commands.executeCommand<DetailHandle | undefined>('agentWorkbench.openConversation', args);
  if (!p) throw new Error('Open Conversation did not open a panel');
  return p;
}

/** Waits for the list to have read what it asked for. */
export async function settled(list: ListHandle, timeoutMs = 60_000): Promise<void> {
  await until('the list to finish loading', () => !list.status().loading, timeoutMs);
}

/** The Conversations API requests the local platform was asked after `since`. */
export async function conversationRequests(admin: LocalAdmin, since = 0): Promise<LoggedRequest[]> {
  const requests = await admin.requests({ base: 'runtime', path: '/conversations', since });
  return requests.filter((r) => r.path.endsWith('/conversations'));
}

/** The seq of the newest request so far (what came after it is what an action asked). */
export function lastRequestSeq(admin: LocalAdmin): Promise<number> {
  return admin.lastRequestSeq();
}

/** Records a conversation on the local platform as given (any text, any number of turns); answers its id. */
export async function seedConversation(admin: LocalAdmin, conversation: ConversationRequest): Promise<string> {
  return (await admin.recordConversation(conversation)).id;
}

/**
 * The demo week of the local platform the editor starts: it ends at the platform clock's current hour
 * (the week's conversations in progress started minutes before it).
 */
export async function demoWeek(admin: LocalAdmin): Promise<{ start: string; end: string }> {
  const { now } = await admin.clock();
  const hour = Math.floor(Date.parse(now) / 3_600_000) * 3_600_000;
  const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
  return { start: iso(hour - 7 * 24 * 3_600_000), end: iso(hour + 3_600_000) };
}
