import * as vscode from 'vscode';
import type { ConversationsClient } from '../../../client/conversations';
import type { ConversationRecord } from '../../../contract/conversations';
import { toDisposable } from '../../../core/disposable';
import { ObservableDisposable } from '../../../core/observableDisposable';
import type { RequestOf, ResultOf } from '../../../protocol/envelope';
import type {
  ConversationFilters,
  ConversationRow,
  ListStatus,
  TranscriptsCommand,
  TranscriptsRequests,
  TranscriptsSnapshot,
  TranscriptTarget,
} from '../../../protocol/transcripts';
import { platformContract } from '../../model/platformClients';
import { requireClients } from '../../common/commandSupport';
import { failureReport } from '../../common/failure';
import type { Connection } from '../../connection/connection';
import type { Log } from '../../log';
import { answerRequest, type RequestHandlers } from '../panelHost';
import { ConversationView } from './conversationView';
import { TranscriptsWebview, type TranscriptsWebviewOptions } from './transcriptsWebview';
import { newestFirstPages } from './newestFirst';
import { PAGE_SIZE, queryOf, rowOf } from './transcriptView';
import { findConversation, hintsOf, type LookupHints } from './conversationLookup';

/** Opens a conversation of the list in its own panel. */
export type OpenRecord = (
  record: ConversationRecord,
  agentId: string | undefined,
  revealed: boolean,
) => Promise<unknown>;

/** Records kept of the newest rows read (ten pages): those rows open without asking the platform again. */
export const RECORDS_KEPT = 10 * PAGE_SIZE;

/** A row as drawn with numbers masked and with numbers shown: what the list keeps of every conversation it read. */
interface RowForms {
  masked: ConversationRow;
  revealed: ConversationRow;
}

/**
 * The list of conversations (Conversations API v3): the filters, and the rows of the pages read so far.
 * The next page is read when the person scrolls near the end. Numbers are masked until revealed. The records of
 * the newest rows read are kept, so such a row opens without asking the platform again; of the others only their
 * rows are kept (a list scrolled through 100,000 conversations holds no 100,000 records), and an older row opens
 * by looking its conversation up around its start. A row opens beside the list in the same page (no page to load,
 * so at once), or in a panel of its own.
 */
export class ConversationsPanel extends ObservableDisposable {
  private readonly webview: TranscriptsWebview;
  private rows: ConversationRow[] = [];
  /** The records of the newest rows read, oldest first (at most RECORDS_KEPT). */
  private readonly records = new Map<string, ConversationRecord>();
  /** Every listed conversation's row in both forms, by id. */
  private readonly forms = new Map<string, RowForms>();
  private pages: AsyncGenerator<ConversationRecord[], void, void> | undefined;
  private loading: Promise<void> | undefined;
  private more = false;
  private revealed = false;
  private error: string | undefined;
  /** The conversation shown beside the list. */
  private detail: ConversationView | undefined;
  /** The person opened or closed a conversation beside the list (a reload's conversation is not brought back then). */
  private chosen = false;
  /** Settles once the first page of the filters the panel opened with is read (or failed). */
  private readonly firstPage: Promise<void>;
  /** Bumped by each new query, so a page of an older one is dropped. */
  private generation = 0;

  constructor(
    readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    private readonly connection: Connection,
    log: Log,
    readonly target: TranscriptTarget,
    private filters: ConversationFilters,
    private readonly openRecord: OpenRecord,
    options: TranscriptsWebviewOptions = {},
    /** Whether a test run of this editor made a conversation: its row is marked. */
    private readonly testRun: (conversationId: string) => boolean = () => false,
  ) {
    super();
    // Closed: a page being read is dropped, and the conversation beside the list closes with it.
    this.register(
      toDisposable(() => {
        this.generation++;
        void this.pages?.return();
        this.detail?.dispose();
        // A handle kept on a closed panel keeps none of what it read.
        this.rows = [];
        this.records.clear();
        this.forms.clear();
      }),
    );
    panel.title = vscode.l10n.t('Conversations: {0}', target.label);
    this.webview = this.register(
      new TranscriptsWebview(
        panel,
        extensionUri,
        log,
        {
          // A page loaded (or loaded again) gets the conversation beside the list too.
          snapshot: () => this.snapshot(true),
          command: (c) => this.command(c),
          requests: this.requests,
        },
        options,
      ),
    );
    this.register(panel.onDidDispose(() => this.dispose()));
    this.register(panel);
    this.firstPage = this.apply(filters);
  }

  get onDidPaint() {
    return this.webview.onDidPaint;
  }
  get onDidNotify() {
    return this.webview.onDidNotify;
  }

  /** The rows shown so far, in the order of the pages. */
  shownRows(): readonly ConversationRow[] {
    return this.rows;
  }

  get currentFilters(): ConversationFilters {
    return this.filters;
  }

  status(): ListStatus {
    const n = this.rows.length;
    // A read that failed or was not sent says nothing of what matches.
    const count =
      n === 0 && !this.loading
        ? this.error
          ? vscode.l10n.t('No conversations shown.')
          : vscode.l10n.t('No conversations match these filters.')
        : n === 1
          ? vscode.l10n.t('1 conversation shown{0}', this.more ? vscode.l10n.t('; scroll for more') : '')
          : this.filters.sort === 'newest' && !this.filters.sample
            ? vscode.l10n.t(
                '{0} conversations shown, newest first{1}',
                n,
                this.more ? vscode.l10n.t('; scroll for more') : '',
              )
            : vscode.l10n.t(
                '{0} conversations shown, oldest first{1}',
                n,
                this.more ? vscode.l10n.t('; scroll for more') : '',
              );
    return {
      loading: this.loading !== undefined,
      more: this.more,
      text: this.loading ? vscode.l10n.t('Loading conversations…') : count,
      ...(this.error ? { error: this.error } : {}),
      revealed: this.revealed,
    };
  }

  /** Applies new filters: the list starts again from the first page. Resolves once that page is shown. */
  async apply(filters: ConversationFilters): Promise<void> {
    this.filters = filters;
    const generation = ++this.generation;
    void this.pages?.return();
    this.pages = undefined;
    this.rows = [];
    this.records.clear();
    this.forms.clear();
    this.more = false;
    this.error = undefined;
    this.loading = undefined;
    const now = Date.now();
    const dates = platformContract().conversationsContract;
    const built = queryOf(filters, now, dates);
    if (!built.ok) {
      this.error = built.problem;
      this.webview.resend(this.snapshot());
      return;
    }
    try {
      const client: ConversationsClient = requireClients(this.connection).conversations;
      // A sample has no order to keep.
      this.pages =
        filters.sort === 'newest' && !filters.sample
          ? newestFirstPages((q) => client.pages(q), built.query, now, PAGE_SIZE, dates.isoToMs)
          : client.pages(built.query);
    } catch (err) {
      this.error = failureReport(vscode.l10n, err, false)?.message ?? String(err);
      this.webview.resend(this.snapshot());
      return;
    }
    this.more = true;
    this.webview.resend(this.snapshot());
    if (generation === this.generation) await this.loadMore();
  }

  /** Reads and shows the next page, unless one is being read or none follows. */
  loadMore(): Promise<void> {
    if (this.loading) return this.loading;
    if (!this.more || !this.pages) return Promise.resolve();
    const generation = this.generation;
    const pages = this.pages;
    this.loading = (async () => {
      this.webview.notify({ type: 'listStatus', status: this.status() });
      try {
        const next = await pages.next();
        if (generation !== this.generation || this.isDisposed) return;
        const records = next.done ? [] : next.value;
        this.more = !next.done;
        const added = records.filter((r) => !this.forms.has(r.id));
        const rows = added.map((r) => {
          const forms = {
            masked: rowOf(r, false, this.filters, this.testRun),
            revealed: rowOf(r, true, this.filters, this.testRun),
          };
          this.forms.set(r.id, forms);
          this.records.set(r.id, r);
          return this.revealed ? forms.revealed : forms.masked;
        });
        for (const id of this.records.keys()) {
          if (this.records.size <= RECORDS_KEPT) break;
          this.records.delete(id);
        }
        this.rows.push(...rows);
        if (rows.length) this.webview.notify({ type: 'rows', rows, seq: this.webview.nextSeq() });
        // The platform ends a result with an empty page or no cursor; the next read tells which.
        if (next.done) this.more = false;
      } catch (err) {
        if (generation !== this.generation) return;
        this.more = false;
        this.error = failureReport(vscode.l10n, err, false)?.message ?? String(err);
      } finally {
        if (generation === this.generation) {
          this.loading = undefined;
          if (!this.isDisposed) this.webview.notify({ type: 'listStatus', status: this.status() });
        }
      }
    })();
    return this.loading;
  }

  /** Shows or masks the callers' and agents' numbers. */
  reveal(revealed: boolean): void {
    this.revealed = revealed;
    this.rows = this.rows.map((row) => {
      const forms = this.forms.get(row.id);
      return forms ? (revealed ? forms.revealed : forms.masked) : row;
    });
    this.webview.resend(this.snapshot());
  }

  /** The conversation shown beside the list, if one is. */
  get openDetail(): ConversationView | undefined {
    return this.detail;
  }

  /**
   * Opens a listed conversation beside the list, in this panel's page (replacing the one shown there),
   * or with `toSide` in a panel of its own.
   */
  async open(conversationId: string, toSide = false): Promise<unknown> {
    if (!this.forms.has(conversationId)) return undefined;
    let record = this.records.get(conversationId);
    if (toSide) {
      record ??= await findConversation(
        requireClients(this.connection).conversations,
        conversationId,
        this.hintsOf(conversationId),
      );
      return record ? this.openRecord(record, this.target.agentId, this.revealed) : undefined;
    }
    this.chosen = true;
    return this.beside(conversationId, record);
  }

  /** Where a listed conversation is found again: the list's environment, around the start its row shows. */
  private hintsOf(conversationId: string): LookupHints {
    const startedAt = this.forms.get(conversationId)?.revealed.startedAt;
    const t = startedAt === undefined ? Number.NaN : Date.parse(startedAt);
    if (!Number.isFinite(t)) return { environment: this.filters.environment };
    return hintsOf({ environment: this.filters.environment, started_at: new Date(t).toISOString() });
  }

  /**
   * After a reload: the conversation that was beside the list, once the first page is read (from its record
   * when listed, else looked up by id, first in the list's environment).
   */
  async reopen(conversationId: string): Promise<ConversationView | undefined> {
    await this.firstPage;
    // Not if the person opened or closed one meanwhile.
    if (this.isDisposed || this.detail || this.chosen) return undefined;
    return this.beside(conversationId, this.records.get(conversationId));
  }

  private beside(conversationId: string, record: ConversationRecord | undefined): ConversationView {
    if (this.detail?.conversationId === conversationId) return this.detail;
    // Replaced, not closed: the page swaps the conversation it shows.
    const replaced = this.detail;
    this.detail = undefined;
    replaced?.dispose();
    const view = new ConversationView(
      this.connection,
      {
        conversationId,
        ...(this.target.agentId ? { agentId: this.target.agentId } : {}),
        hints: this.hintsOf(conversationId),
      },
      this.webview,
      { ...(record ? { record } : {}), revealed: this.revealed },
    );
    this.detail = view;
    view.onDidDispose(() => {
      if (this.detail !== view) return;
      this.detail = undefined;
      if (!this.isDisposed) this.webview.notify({ type: 'detailClosed' });
    });
    return view;
  }

  /** The list; with `withDetail`, the conversation beside it too (otherwise the page keeps what it shows there). */
  private snapshot(withDetail = false): TranscriptsSnapshot {
    return {
      kind: 'list',
      list: { target: this.target, filters: this.filters, rows: this.rows, status: this.status() },
      ...(withDetail && this.detail ? { detail: this.detail.snapshot() } : {}),
    };
  }

  /** Whether what the page asked names another conversation than the one now beside the list (another row opened since). */
  private staleFor(asked: { conversationId?: string }): boolean {
    return asked.conversationId !== undefined && asked.conversationId !== this.detail?.conversationId;
  }

  /** What the page commands, checked by the panel host (tests send it as the page does). */
  async command(c: TranscriptsCommand): Promise<void> {
    if ('conversationId' in c && c.type !== 'open' && this.staleFor(c)) return;
    switch (c.type) {
      case 'filters':
        await this.apply(c.filters);
        break;
      case 'more':
        await this.loadMore();
        break;
      case 'reveal':
        this.reveal(c.revealed);
        this.detail?.reveal(c.revealed);
        break;
      case 'open':
        await this.open(c.conversationId, c.toSide === true);
        break;
      case 'refresh':
        await this.apply(this.filters);
        break;
      case 'closeDetail':
        this.chosen = true;
        this.detail?.dispose();
        break;
      case 'openToSide': {
        const record = this.detail?.recordRead;
        if (record) await this.openRecord(record, this.target.agentId, this.revealed);
        break;
      }
      default:
        // Find, Refresh, Open Agent and Replay of the conversation beside the list.
        await this.detail?.command(c);
        break;
    }
  }

  /** What the page asks of the conversation beside the list: nothing once another row has replaced it. */
  private get requests(): RequestHandlers<TranscriptsRequests> {
    return {
      export: (r) => (this.detail && !this.staleFor(r) ? this.detail.requests.export(r) : Promise.resolve({})),
      copyId: (r) => (this.detail && !this.staleFor(r) ? this.detail.requests.copyId(r) : Promise.resolve({})),
    };
  }

  /** What the page asks, checked by the panel host (tests ask it as the page does). */
  request<K extends keyof TranscriptsRequests & string>(
    r: RequestOf<TranscriptsRequests, K>,
  ): Promise<ResultOf<TranscriptsRequests, K>> {
    return answerRequest(this.requests, r);
  }
}
