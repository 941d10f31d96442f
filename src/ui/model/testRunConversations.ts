/** What the registry keeps its ids in (a VS Code Memento). */
interface Store {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

const KEY = 'agentWorkbench.testRunConversations';
/** The newest ids kept: enough for the conversations a person still looks for. */
const LIMIT = 2000;

/**
 * The conversations the editor's own test runs made. The platform's record of a conversation does not say that a
 * test made it (its channel and attributes are those any chat has: docs/api-assumptions.md), so the editor
 * remembers the ids its runs were given, and the conversations list marks those rows. Kept per workspace.
 */
export class TestRunConversations {
  private ids: string[];
  private set: Set<string>;

  constructor(private readonly store?: Store) {
    const kept = store?.get<unknown>(KEY);
    this.ids = Array.isArray(kept) ? kept.filter((id): id is string => typeof id === 'string') : [];
    this.set = new Set(this.ids);
  }

  /** Remembers a conversation a test run made. */
  add(conversationId: string): void {
    if (!conversationId || this.set.has(conversationId)) return;
    this.ids.push(conversationId);
    if (this.ids.length > LIMIT) this.ids = this.ids.slice(-LIMIT);
    this.set = new Set(this.ids);
    void this.store?.update(KEY, this.ids);
  }

  /** Whether a test run of this editor made the conversation. */
  has(conversationId: string): boolean {
    return this.set.has(conversationId);
  }
}
