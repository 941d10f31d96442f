import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestFile } from '../../agentTests/format';
import type { ChatConversations } from '../../agentTests/runner';
import { type ConnectionProfile, LOCAL_PROFILE_ID } from '../../client/profile';
import { Disposable, DisposableStore, MutableDisposable } from '../../core/disposable';
import { folderAgentOf } from '../../workspace/testFolderAgent';
import { agentTestsRuntime } from '../agentTestsRuntime';
import { localProfileReaching, otherAgentGuard } from '../connection/agentReach';
import { recordReach } from '../../agentTests/records/reach';
import type { Connection } from '../connection/connection';
import type { FolderSync } from '../connection/folderSync';
import { Command, TEST_CONTROLLER } from '../ids';
import { TESTS_SECTION, testFilesInclude } from '../testSettings';
import type { TestRunConversations } from '../model/testRunConversations';
import type { ProfileModels } from '../model/profileModels';
import { followSaves } from './continuousRun';
import { behind, pushAndPublish, pushAndPublishFirst } from './localSandbox';
import { fillFileItem, type TestItemData, toRange } from './testItems';
import { type JudgedSupport, type RunRecord, type RunTarget, runConversationTests } from './testRun';
import { JudgedVerdicts, registerLabelCommands } from './judgedVerdicts';
import type { ModelKeys } from './modelKey';
import type { RunTranscripts } from './runTranscripts';
import { modelForRun } from './testModels';
import { writeLabel } from './labelWriter';
import type { Environment } from '../../contract/common';
import { prompts } from '../common/prompts';
import { comparisonSide } from './compareSides';
import { comparisonSummary, type EditorComparison, runComparisonInEditor } from './comparisonRun';
import { askEnvironments, openComparisonReport } from './comparisonReports';

/**
 * The Testing view's conversation tests: a TestController whose items are the test files (setting
 * agentWorkbench.tests.include), their cases and turns, with each file's problems as diagnostics; a run profile for
 * the local platform and one per connection profile with a Chat key. Discovery only lists the files: a file is read
 * when the Testing view expands it, a run needs it, or it is open in the editor, and once read it is kept current as
 * it changes on disk and as it is edited.
 */
export class ConversationTests extends Disposable {
  readonly controller = this.register(
    vscode.tests.createTestController(TEST_CONTROLLER, vscode.l10n.t('Conversation tests')),
  );
  private readonly diagnostics = this.register(vscode.languages.createDiagnosticCollection(TEST_CONTROLLER));
  private readonly data = new WeakMap<vscode.TestItem, TestItemData>();
  private readonly watcher = this.register(new MutableDisposable<vscode.Disposable>());
  private readonly profiles = this.register(new MutableDisposable<DisposableStore>());
  private readonly edits = new Map<string, ReturnType<typeof setTimeout>>();
  /** What each file's items were made from: reading the same text again keeps them, and what a run wrote on them. */
  private readonly shown = new Map<
    string,
    { readonly text: string; readonly agent?: string; readonly file: TestFile }
  >();
  private discovered: Promise<void> | undefined;
  /** The runs made since activation, newest last (read by the extension's tests). */
  readonly runs: RunRecord[] = [];
  /** The run profiles as they are now: the local platform's first. */
  runProfiles: readonly vscode.TestRunProfile[] = [];
  /** The run profile that compares two environments. */
  compareProfile: vscode.TestRunProfile | undefined;
  /** The comparisons made since activation, newest last (read by the extension's tests). */
  readonly comparisons: EditorComparison[] = [];
  /** What runs of judged cases use: the model chosen in the settings, the runs' conversations, the verdicts to label. */
  private readonly judged: JudgedSupport | undefined;

  constructor(
    readonly connection: Connection,
    private readonly models?: ProfileModels<object>,
    /** Where the conversations the runs make are remembered, for the conversations list to mark. */
    private readonly testRuns?: TestRunConversations,
    /** Status and push of agent folders, as Source Control does them: Push and Publish before a local run. */
    private readonly sync?: FolderSync,
    /** The model of judged criteria: the endpoint's key, and where the runs' conversations are kept for the quotes. */
    judged?: { readonly keys: ModelKeys; readonly transcripts: RunTranscripts },
    /** Where a comparison remembers which profile holds another environment's Chat key (profile ids only). */
    private readonly memory?: vscode.Memento,
  ) {
    super();
    if (judged) {
      const verdicts = new JudgedVerdicts();
      this.judged = {
        model: (cases, output) => modelForRun(cases, judged.keys, output),
        transcripts: judged.transcripts,
        verdicts,
      };
      this.register(registerLabelCommands(verdicts, () => writeLabel));
    }
    // Discovery starts when the Testing view first asks, so activation reads no file; a file's cases when it asks.
    this.controller.resolveHandler = async (item) => {
      if (!item) await this.discover();
      else if (item.uri) await this.readFile(item.uri);
    };
    this.controller.refreshHandler = async () => {
      this.discovered = undefined;
      await this.discover();
    };
    this.register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (!e.affectsConfiguration(`${TESTS_SECTION}.include`)) return;
        this.includeRead = undefined;
        if (this.discovered) void this.controller.refreshHandler?.(new vscode.CancellationTokenSource().token);
      }),
    );
    this.register(vscode.workspace.onDidChangeTextDocument((e) => this.edited(e.document)));
    // A test file opened is read at once: the person is looking at it.
    this.register(
      vscode.workspace.onDidOpenTextDocument((doc) => {
        if (this.matches(doc)) this.show(doc.uri, doc.getText());
      }),
    );
    this.register(connection.profiles.onDidChange(() => void this.makeProfiles()));
    this.register(connection.profiles.onDidChangeEnvironment(() => void this.makeProfiles()));
    this.register({ dispose: () => this.edits.forEach((t) => clearTimeout(t)) });
    void this.makeProfiles();
  }

  /** The setting as last read: every keystroke in any document asks whether it is a test file. */
  private includeRead: string | undefined;

  private get include(): string {
    this.includeRead ??= testFilesInclude();
    return this.includeRead;
  }

  private get compareRepeat(): number {
    return Math.max(1, Math.floor(vscode.workspace.getConfiguration(TESTS_SECTION).get<number>('compareRepeat', 5)));
  }

  private get concurrency(): number {
    return Math.max(1, Math.floor(vscode.workspace.getConfiguration(TESTS_SECTION).get<number>('concurrency', 4)));
  }

  /**
   * Finds every test file and watches for more; resolves when their items are there. A file is not read here (its
   * item can resolve its children), but for one already read, which is read again, and one open in the editor.
   */
  discover(): Promise<void> {
    this.discovered ??= (async () => {
      const include = this.include;
      this.watch(include);
      const uris = await vscode.workspace.findFiles(include, '**/node_modules/**');
      const seen = new Set(uris.map((u) => u.toString()));
      const gone: vscode.Uri[] = [];
      this.controller.items.forEach((item) => {
        if (!seen.has(item.id) && item.uri) gone.push(item.uri);
      });
      gone.forEach((uri) => this.forget(uri));
      const open = new Set(vscode.workspace.textDocuments.map((d) => d.uri.toString()));
      await Promise.all(
        uris.map((uri) =>
          this.isRead(this.fileItem(uri)) || open.has(uri.toString()) ? this.readFile(uri) : undefined,
        ),
      );
    })();
    return this.discovered;
  }

  /** The pattern the watcher was made for: a refresh lists the files again and keeps the watcher it has. */
  private watching: string | undefined;

  /**
   * Watches the test files for this pattern, once: a watcher made anew on every refresh would miss what changes
   * while it starts.
   */
  private watch(include: string): void {
    if (this.watching === include) return;
    this.watching = include;
    const watcher = vscode.workspace.createFileSystemWatcher(include);
    const store = new DisposableStore();
    store.add(watcher);
    // A file changed on disk is read again if it was read; one not read yet waits for the Testing view to ask. A
    // file written anew (a save through a temporary file, a checkout, a change close behind its creation) may come
    // as a creation: it is read again too when its item was read.
    const changed = (uri: vscode.Uri) => {
      if (this.isRead(this.fileItem(uri))) void this.readFile(uri);
    };
    store.add(watcher.onDidCreate(changed));
    store.add(watcher.onDidChange(changed));
    store.add(watcher.onDidDelete((uri) => this.forget(uri)));
    this.watcher.value = store;
  }

  /** The item of a test file, made unread (its children resolved when the Testing view asks) if it is new. */
  private fileItem(uri: vscode.Uri): vscode.TestItem {
    const id = uri.toString();
    const known = this.controller.items.get(id);
    if (known) return known;
    const item = this.controller.createTestItem(id, path.basename(uri.fsPath), uri);
    item.description = vscode.workspace.asRelativePath(path.dirname(path.dirname(uri.fsPath)));
    item.canResolveChildren = true;
    this.controller.items.add(item);
    return item;
  }

  /** Whether a file's cases have been read (its item resolved). */
  private isRead(item: vscode.TestItem): boolean {
    return this.data.get(item)?.kind === 'file';
  }

  /** Reads the files among these items that are not read yet, so a run or a search sees their cases. */
  private async readUnread(items: readonly vscode.TestItem[]): Promise<void> {
    // Cases and turns have data from the moment they are made: only an unread file item has none.
    await Promise.all(items.map((item) => (item.uri && !this.data.has(item) ? this.readFile(item.uri) : undefined)));
  }

  private matches(doc: vscode.TextDocument): boolean {
    return doc.uri.scheme === 'file' && vscode.languages.match({ pattern: this.include }, doc) > 0;
  }

  /** An edited test file is read again from its text after a pause in typing, before it is saved. */
  private edited(doc: vscode.TextDocument): void {
    if (!this.matches(doc)) return;
    const key = doc.uri.toString();
    clearTimeout(this.edits.get(key));
    this.edits.set(
      key,
      setTimeout(() => {
        this.edits.delete(key);
        this.show(doc.uri, doc.getText());
      }, 250),
    );
  }

  private async readFile(uri: vscode.Uri): Promise<void> {
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    try {
      const text = open ? open.getText() : new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
      this.show(uri, text);
    } catch {
      this.forget(uri);
    }
  }

  private forget(uri: vscode.Uri): void {
    this.controller.items.delete(uri.toString());
    this.shown.delete(uri.toString());
    this.diagnostics.delete(uri);
  }

  /** Reads a file's text into its items and diagnostics; never throws, whatever the text. */
  private show(uri: vscode.Uri, text: string): TestFile {
    const runtime = agentTestsRuntime();
    const key = uri.toString();
    // A case naming no agent reaches the agent of its folder.
    const agent = folderAgentOf(uri.fsPath);
    const last = this.shown.get(key);
    // A watcher's late word on a file already read changes nothing: the flaky mark of the last run stays.
    if (last && last.text === text && last.agent === agent && this.controller.items.get(key)) return last.file;
    const file = runtime.withAgent(runtime.parseTestFile(vscode.workspace.asRelativePath(uri), text), agent);
    this.shown.set(key, { text, agent, file });
    const item = this.fileItem(uri);
    fillFileItem(this.controller, item, file, this.data);
    item.canResolveChildren = false;
    this.diagnostics.set(
      uri,
      file.problems.map((p) => {
        const d = new vscode.Diagnostic(
          toRange(p.range),
          p.message,
          p.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning,
        );
        d.source = vscode.l10n.t('Conversation tests');
        return d;
      }),
    );
    return file;
  }

  /**
   * The run profiles: the local platform, and each connection profile that has a Chat key. The default is the one
   * of the profile in use: its own when it has a Chat key, else the local platform's.
   */
  private async makeProfiles(): Promise<void> {
    const store = new DisposableStore();
    const targets: RunTarget[] = [this.localTarget()];
    const active = this.connection.profiles.active;
    let byDefault = 0;
    for (const profile of this.connection.profiles.list()) {
      if (profile.region === 'local' || !(await this.connection.vault.get(profile.id, 'chatApiKey'))) continue;
      if (profile.id === active?.id) byDefault = targets.length;
      targets.push(this.profileTarget(profile, true));
    }
    if (this.isDisposed) {
      store.dispose();
      return;
    }
    this.runProfiles = targets.map((target, i) => {
      const profile = store.add(
        this.controller.createRunProfile(
          target.label,
          vscode.TestRunProfileKind.Run,
          (request, token) =>
            request.continuous ? this.follow(request, token, target) : this.run(request, token, target),
          i === byDefault,
        ),
      );
      // The local platform's runs follow saves: push, publish to its sandbox, run again (continuousRun.ts). A real
      // environment's would make real conversations on every save, so its runs are started by the person.
      profile.supportsContinuousRun = !target.real && target.prepare !== undefined;
      return profile;
    });
    // Comparing two environments of the profile in use: asked which, then each case runs on both, paired.
    this.compareProfile = store.add(
      this.controller.createRunProfile(
        vscode.l10n.t('Compare Two Environments…'),
        vscode.TestRunProfileKind.Run,
        (request, token) => this.compareAsked(request, token),
        false,
      ),
    );
    this.profiles.value = store;
  }

  /**
   * The environment the status bar says is worked against, through a connection profile's Chat key. A case naming
   * an agent that the profile's project does not serve is skipped with the reason, never sent to another agent.
   */
  private profileTarget(profile: ConnectionProfile, real: boolean): RunTarget {
    const environment = this.connection.profiles.environment;
    return {
      label: vscode.l10n.t('{0} ({1}, its Chat key)', profile.name, environment),
      environment,
      real,
      reach: async () => {
        const clients = this.connection.clientsFor(profile);
        const chat = clients.chat;
        // Record checks read the conversations' records with the profile's Conversations key.
        const records = recordReach(clients.conversations, environment);
        const otherAgent = await otherAgentGuard(this.connection, profile, this.models);
        return async (testCase) => {
          const other = await otherAgent(testCase.agent);
          return other ? { skip: other } : { chat, records };
        };
      },
    };
  }

  /**
   * The local platform: each case reaches the agent it names through the Chat key and connector of that agent's own
   * project (the Local profile reaches every project the platform serves); a case naming an agent the platform does
   * not serve is skipped.
   */
  private localTarget(): RunTarget {
    const { sync, models } = this;
    return {
      label: vscode.l10n.t('Local platform'),
      // The local projects' Chat keys are provisioned for sandbox.
      environment: 'sandbox',
      real: false,
      reach: async () => {
        // Started when it is not running; one already running is used as it is, without a word.
        const urls = this.connection.localAttached
          ? true
          : await vscode.commands.executeCommand<unknown>(Command.startLocalPlatform);
        const local = this.connection.profiles.get(LOCAL_PROFILE_ID);
        if (!urls || !local)
          throw new Error(vscode.l10n.t('The local platform is not running, so the cases could not run.'));
        const chats = new Map<string, ChatConversations>();
        const chatOf = (profile: ConnectionProfile) => {
          let chat = chats.get(profile.id);
          if (!chat) chats.set(profile.id, (chat = this.connection.clientsFor(profile).chat));
          return chat;
        };
        const recordsOf = (profile: ConnectionProfile) =>
          recordReach(this.connection.clientsFor(profile).conversations, 'sandbox');
        return async (testCase) => {
          if (testCase.agent === undefined) return { chat: chatOf(local), records: recordsOf(local) };
          const profile = await localProfileReaching(this.connection, local, { agentId: testCase.agent });
          return profile
            ? { chat: chatOf(profile), records: recordsOf(profile) }
            : { skip: vscode.l10n.t('the local platform serves no agent {0}', testCase.agent) };
        };
      },
      ...(sync && models
        ? {
            prepare: (files: readonly vscode.Uri[], output: (text: string) => void) =>
              pushAndPublishFirst(files, this.connection, models, sync, output),
          }
        : {}),
    };
  }

  /** The case items of an agent tagged with a tag, from the files as they are now on disk. */
  async casesTagged(agentId: string, tag: string): Promise<vscode.TestItem[]> {
    this.discovered = undefined;
    await this.discover();
    await this.readUnread(this.fileItems());
    const found: vscode.TestItem[] = [];
    this.controller.items.forEach((file) =>
      file.children.forEach((item) => {
        const d = this.data.get(item);
        if (d?.kind === 'case' && d.testCase.agent === agentId && d.testCase.tags.includes(tag)) found.push(item);
      }),
    );
    return found;
  }

  /** Runs cases against an environment: the local platform, or the active profile with its Chat key. */
  async runFor(items: vscode.TestItem[], environment: string, local: boolean): Promise<RunRecord> {
    const profile = this.connection.profiles.active;
    const target: RunTarget =
      local || !profile
        ? this.localTarget()
        : {
            ...this.profileTarget(profile, false),
            label: vscode.l10n.t('{0} ({1})', profile.name, environment),
            environment,
          };
    await this.run(new vscode.TestRunRequest(items), new vscode.CancellationTokenSource().token, target);
    return this.runs.at(-1)!;
  }

  /** Asks which two environments, then compares the request's cases on them and offers the report. */
  private async compareAsked(request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> {
    const environments = await askEnvironments(this.connection.profiles.environment);
    if (!environments) return;
    const compared = await this.compare(request, environments.base, environments.candidate, token);
    if (!compared) return;
    const open = vscode.l10n.t('Open Report');
    const answer = await prompts.info(comparisonSummary(compared.suite), open);
    if (answer === open) await openComparisonReport(compared.markdown);
  }

  /**
   * Compares cases on two environments of the profile in use (the local platform's, or a real one's through the
   * Chat key of each), `compareRepeat` runs each, paired; reported in the Testing view. Undefined when nothing ran.
   */
  async compare(
    request: vscode.TestRunRequest | readonly vscode.TestItem[],
    base: Environment,
    candidate: Environment,
    token: vscode.CancellationToken = new vscode.CancellationTokenSource().token,
  ): Promise<EditorComparison | undefined> {
    const asked = 'include' in request ? request : new vscode.TestRunRequest([...request]);
    await this.discover();
    await this.readUnread(asked.include ?? this.fileItems());
    const sides = {
      base: await comparisonSide(this.connection, this.memory, base, this.models),
      candidate: await comparisonSide(this.connection, this.memory, candidate, this.models),
    };
    const record: { -readonly [K in keyof RunRecord]: RunRecord[K] } = {
      profile: vscode.l10n.t('Compare {0} with {1}', sides.candidate.label, sides.base.label),
      items: new Map(),
      output: '',
      done: Promise.resolve(),
    };
    this.runs.push(record);
    if (this.runs.length > 20) this.runs.shift();
    const compared = await runComparisonInEditor({
      controller: this.controller,
      data: this.data,
      request: asked,
      token,
      ...sides,
      repeat: this.compareRepeat,
      concurrency: this.concurrency,
      record,
      ...(this.judged ? { judged: this.judged } : {}),
    });
    if (compared) this.comparisons.push(compared);
    return compared;
  }

  /** Runs a request; the record is kept for the extension's tests. */
  run(request: vscode.TestRunRequest, token: vscode.CancellationToken, target: RunTarget): Promise<void> {
    const record: { -readonly [K in keyof RunRecord]: RunRecord[K] } = {
      profile: target.label,
      items: new Map(),
      output: '',
      done: Promise.resolve(),
    };
    this.runs.push(record);
    if (this.runs.length > 20) this.runs.shift();
    record.done = this.discover().then(async () => {
      // A file the Testing view has not expanded yet is read first, so its cases run.
      await this.readUnread(request.include ?? this.fileItems());
      await runConversationTests({
        controller: this.controller,
        data: this.data,
        request,
        token,
        target,
        concurrency: this.concurrency,
        record,
        made: (id) => this.testRuns?.add(id),
        ...(this.judged ? { judged: this.judged } : {}),
      });
    });
    return record.done;
  }

  /**
   * A continuous run: while it is on, each save in a checked-out agent folder pushes and publishes it (asked once), then
   * runs again the watched cases of that agent (the items the person turned it on for, or every case); each cycle is a
   * run of its own, so its results replace the last ones.
   */
  private follow(request: vscode.TestRunRequest, token: vscode.CancellationToken, target: RunTarget): Promise<void> {
    const { sync, models } = this;
    if (!sync || !models) return this.run(request, token, target);
    const { prepare: _asked, ...plain } = target;
    const excluded = new Set(request.exclude ?? []);
    return followSaves(
      {
        folderOf: async (uri) => {
          const folder = await sync.folderAt(uri).catch(() => undefined);
          return folder ? { root: folder.folder.root, manifest: folder.folder.manifest } : undefined;
        },
        isTestFile: (doc) => this.matches(doc),
        casesOf: async (agentIds, testFiles) => {
          await this.discover();
          for (const uri of testFiles) await this.readFile(uri);
          const roots = request.include ?? this.fileItems();
          await this.readUnread(roots);
          const saved = new Set(testFiles.map((u) => u.toString()));
          const found = new Map<string, vscode.TestItem>();
          const add = (item: vscode.TestItem) => {
            const d = this.data.get(item);
            if (d?.kind !== 'case' || excluded.has(item)) return;
            const agent = d.testCase.agent;
            if ((agent !== undefined && agentIds.has(agent)) || (item.uri && saved.has(item.uri.toString())))
              found.set(item.id, item);
          };
          for (const root of roots) {
            if (excluded.has(root)) continue;
            const d = this.data.get(root);
            if (d?.kind === 'file') root.children.forEach(add);
            else if (d?.kind === 'case') add(root);
            else if (d?.kind === 'turn' && root.parent) add(root.parent);
          }
          return [...found.values()];
        },
        behind: (folders) => behind(folders, models, sync),
        pushAndPublish: (folders, output) => pushAndPublish(folders, this.connection, models, sync, output),
        run: (items, cycleToken, prepare) =>
          this.run(new vscode.TestRunRequest(items, undefined, request.profile), cycleToken, {
            ...plain,
            prepare: (_files, output) => prepare(output),
          }),
      },
      token,
    );
  }

  private fileItems(): vscode.TestItem[] {
    const items: vscode.TestItem[] = [];
    this.controller.items.forEach((item) => items.push(item));
    return items;
  }
}
