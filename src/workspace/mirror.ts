import { AGENT_MANIFEST, type AgentManifest, parseAgentManifest, serializeAgentManifest } from './agentManifest';
import { type BaseEntry, type BaseSnapshot, type ConflictRecord, emptyBase, readBase, writeBase } from './baseStore';
import { hasConflictMarkers, withConflictMarkers } from './conflictMarkers';
import { readLocal, type RemoteDocs } from './documents';
import { forEachLimit, type MirrorFileSystem } from './fileSystem';
import { configOfKey, type DocKey, kindOfKey, pathForDoc, realtimePath, topicKey } from './layout';
import { isAssumptionFailure } from '../client/errors';
import { fetchRemote, fetchRemoteIfReadable, type MirrorClient, remoteFromBase } from './remote';
import { docText, topicText } from './serializer';
import { computeStatus, type FileStatus, localText, mergedDoc, sidesOf } from './status';
import { type PullAction, type PullConflict, planPull } from './pullPlan';
import { type PushAction, type PushRefusal, planPush } from './pushPlan';

/** File writes in flight at once: enough to overlap disk latency, few enough to leave the editor room. */
const WRITES_AT_ONCE = 16;

export interface PullReport {
  actions: PullAction[];
  conflicts: PullConflict[];
}

export interface PushReport {
  /** What was sent, in order (all of it when the push finished). */
  sent: PushAction[];
  /** When not empty, nothing was sent: each says what to do first. */
  refused: PushRefusal[];
}

/**
 * Thrown by a push when the platform does not let the branch be read (its reads are endpoints the spec does
 * not show): nothing was sent. Pushing with `overwrite` sends the files over what the platform holds, without
 * knowing whether it changed there.
 */
export class UnreadableRemoteError extends Error {
  constructor(override readonly cause: unknown) {
    super(
      `The platform does not let this branch be read (${cause instanceof Error ? cause.message : String(cause)}), so a push cannot tell whether it changed there. Nothing was pushed.`,
    );
    this.name = 'UnreadableRemoteError';
  }
}

/**
 * Thrown by a pull, push or branch switch of a folder whose base was read from other platform data than the
 * platform reached now holds (another local platform, or the same one started afresh or reset): the platform does
 * not hold what the folder was read from, so a pull would undo what was pushed there and a push would send edits
 * over other content. Nothing was changed.
 */
export class OtherPlatformDataError extends Error {
  constructor(
    /** The data id the base records (undefined: it records none). */
    readonly recorded: string | undefined,
    /** The data id of the platform reached now (undefined: it has none). */
    readonly current: string | undefined,
  ) {
    super(
      `${
        recorded === undefined
          ? 'This folder does not record which local platform it was read from, and the local platform reached now started afresh, so it cannot hold what the folder was read from.'
          : current === undefined
            ? 'This folder was read from a local platform, and the platform reached now is not one: it does not hold what the folder was read from.'
            : 'This folder was read from another local platform (or from this one before it started afresh or was reset): the platform reached now does not hold what the folder was read from, so a pull would undo what you pushed and a push would send your edits over other content.'
      } Nothing was pulled or pushed, and no file was changed. Use the local platform the folder was read from, or check the agent out again into another folder and copy your edits there.`,
    );
    this.name = 'OtherPlatformDataError';
  }
}

export interface AgentMirrorOptions {
  /** Which data the platform holds now, where the client does not say it itself (MirrorClient.platformData). */
  readonly platformData?: (signal?: AbortSignal) => Promise<string | undefined>;
  /**
   * Refuse a folder whose base records no data id while the platform has one (the platform started afresh just
   * now, so the folder cannot have been read from it). Otherwise such a base, written before data ids were kept,
   * takes the platform's id at its next pull or push.
   */
  readonly refuseUnrecorded?: boolean;
}

/** A recorded conflict of one file: the platform's side (null: deleted there) and the fixed snapshot of yours. */
export interface FileConflict extends ConflictRecord {
  key: DocKey;
}

/** Thrown when a branch switch would overwrite edits not yet pushed. */
export class UnpushedEditsError extends Error {
  constructor(readonly files: FileStatus[]) {
    super(
      `${files.length} file(s) have edits not yet pushed (${files
        .slice(0, 3)
        .map((f) => f.path)
        .join(', ')}${files.length > 3 ? ', ...' : ''}): push or discard them before switching branch.`,
    );
    this.name = 'UnpushedEditsError';
  }
}

/**
 * One agent folder and the platform branch it mirrors: check out, status, pull, push, settle a
 * conflict, discard, switch branch. Every step writes files first and the base last, each write
 * atomic, and every plan treats "file already equals the platform" as done; so a step that
 * fails at any point (server error, dropped connection, the editor closing) leaves files and
 * base consistent, and the next pull or push finishes the job.
 */
export class AgentMirror {
  constructor(
    private readonly fs: MirrorFileSystem,
    private readonly client: MirrorClient,
    private readonly options: AgentMirrorOptions = {},
  ) {}

  /**
   * The base, when it was read from the data the platform holds now (a base that records none takes the
   * platform's id, unless `refuseUnrecorded`); otherwise OtherPlatformDataError. Where the client cannot tell which
   * data it reaches, the base as it is.
   */
  async checkPlatformData(signal?: AbortSignal): Promise<BaseSnapshot> {
    return this.sameData(await this.recover(), signal);
  }

  /**
   * Takes what the platform reached now holds as the folder's base, keeping every file as it is: for a folder read
   * from other data (a local platform started afresh or reset, {@link OtherPlatformDataError}), what the files hold
   * that this platform does not then shows as local changes, to push or to discard, and nothing is lost. No file is
   * written and nothing is sent to the platform; the conflicts recorded against the other data are let go.
   */
  async adoptPlatformData(signal?: AbortSignal): Promise<void> {
    const { switching: _switching, ...base } = await this.recover();
    const dataId = await this.platformData?.(signal);
    const remote = await fetchRemote(this.client, { ...base, known: base.docs }, signal);
    const { dataId: _was, ...rest } = base;
    await writeBase(this.fs, {
      ...rest,
      docs: baseDocs(base.docs, remote),
      conflicts: {},
      ...(dataId !== undefined ? { dataId } : {}),
    });
  }

  /** Which data the platform holds now; undefined when the mirror cannot tell (nothing is recorded or checked). */
  private get platformData(): ((signal?: AbortSignal) => Promise<string | undefined>) | undefined {
    if (this.options.platformData) return this.options.platformData;
    const client = this.client;
    const read = client.platformData;
    return typeof read === 'function' ? (signal) => read.call(client, signal) : undefined;
  }

  private async sameData(base: BaseSnapshot, signal?: AbortSignal): Promise<BaseSnapshot> {
    const read = this.platformData;
    if (!read) return base;
    const current = await read(signal);
    if (base.dataId === current) return base;
    if (base.dataId === undefined && current !== undefined && !this.options.refuseUnrecorded)
      return { ...base, dataId: current };
    throw new OtherPlatformDataError(base.dataId, current);
  }

  async manifest(): Promise<AgentManifest | undefined> {
    const text = await this.fs.read(AGENT_MANIFEST);
    return text === undefined ? undefined : parseAgentManifest(text);
  }

  /**
   * Writes the agent's branch into the folder (an empty one, or one that already mirrors this agent). Where the
   * platform does not let the branch be read, the folder starts with no documents (`readable` false): what the
   * person writes there is then pushed over what the platform holds.
   */
  async checkout(manifest: AgentManifest, signal?: AbortSignal): Promise<{ readable: boolean }> {
    const base = await readBase(this.fs);
    if (base && base.agentId !== manifest.agentId)
      throw new Error(`This folder already mirrors agent ${base.agentId}. Check out into another folder.`);
    if (base) {
      await this.switchBranch(manifest.branch, signal);
      return { readable: true };
    }
    const dataId = await this.platformData?.(signal);
    const read = await fetchRemoteIfReadable(
      this.client,
      { agentId: manifest.agentId, branchId: manifest.branch.branchId },
      signal,
    );
    await this.moveTo(manifest, {}, 'docs' in read ? read.docs : new Map(), dataId);
    return { readable: 'docs' in read };
  }

  /** Per file: local edits and recorded conflicts, and with `remote` the platform's changes too. */
  async status(opts: { remote?: boolean; signal?: AbortSignal } = {}): Promise<FileStatus[]> {
    const base = await this.recover();
    const remote = opts.remote ? await fetchRemote(this.client, { ...base, known: base.docs }, opts.signal) : undefined;
    return computeStatus(base, await readLocal(this.fs, base, remote), remote);
  }

  async pull(signal?: AbortSignal): Promise<PullReport> {
    const base = await this.checkPlatformData(signal);
    const remote = await fetchRemote(this.client, { ...base, known: base.docs }, signal);
    const plan = planPull(base, await readLocal(this.fs, base, remote), remote);
    await forEachLimit(plan.actions, WRITES_AT_ONCE, (a) =>
      a.kind === 'write' ? this.fs.write(a.path, a.text) : this.fs.remove(a.path),
    );
    await writeBase(this.fs, plan.nextBase);
    return { actions: plan.actions, conflicts: plan.conflicts };
  }

  /**
   * Sends the local edits. The platform is read again first (the specification offers no
   * version precondition): an edit to a document changed there since the last pull is never
   * sent over it; the push then sends nothing and asks for a pull. `onAction` is told of each action as it is
   * sent (`done` false) and once the platform took it (`done` true): a push that fails on one file can then say
   * what it already changed.
   */
  async push(
    signal?: AbortSignal,
    opts: { overwrite?: boolean; onAction?: (action: PushAction, done: boolean) => void } = {},
  ): Promise<PushReport> {
    const base = await this.checkPlatformData(signal);
    const read = await fetchRemoteIfReadable(this.client, { ...base, known: base.docs }, signal);
    if ('unreadable' in read && !opts.overwrite) throw new UnreadableRemoteError(read.unreadable);
    // Overwriting: the platform is taken to hold what the base says, so every edit is sent.
    const overwrite = 'unreadable' in read;
    const remote = 'docs' in read ? read.docs : remoteFromBase(base.docs);
    const plan = planPush(base, await readLocal(this.fs, base, remote), remote, { overwrite });
    const next: BaseSnapshot = { ...base, docs: { ...base.docs }, conflicts: { ...base.conflicts } };
    const record = (key: DocKey, path: string, text: string | undefined): void => {
      if (text === undefined) Reflect.deleteProperty(next.docs, key);
      else next.docs[key] = { path, text };
      Reflect.deleteProperty(next.conflicts, key);
    };
    for (const s of plan.inStep) {
      if (s.writeFile && s.text !== undefined) await this.fs.write(s.path, s.text);
      record(s.key, s.path, s.text);
    }
    if (plan.refused.length > 0) {
      if (plan.inStep.length > 0) await writeBase(this.fs, next);
      return { sent: [], refused: plan.refused };
    }
    const sent: PushAction[] = [];
    try {
      for (const action of plan.actions) {
        opts.onAction?.(action, false);
        await this.send(base, action, record, signal);
        sent.push(action);
        opts.onAction?.(action, true);
      }
    } catch (err) {
      // Keep what went through; if even that cannot be written, the next push finds it in step.
      await writeBase(this.fs, next).catch(() => undefined);
      throw err;
    }
    await writeBase(this.fs, next);
    return { sent, refused: [] };
  }

  private async send(
    target: BaseSnapshot,
    a: PushAction,
    record: (key: DocKey, path: string, text: string | undefined) => void,
    signal?: AbortSignal,
  ): Promise<void> {
    const { agentId, branchId } = target;
    switch (a.kind) {
      case 'behavior':
        await this.client.updateBehavior(agentId, branchId, a.behavior, signal);
        break;
      case 'updateTopic':
        await this.client.updateTopic(agentId, branchId, a.topicId, a.change, signal);
        break;
      case 'deleteTopic':
        await this.client.deleteTopic(agentId, branchId, a.topicId, signal);
        break;
      case 'variables':
        await this.client.updateVariables(agentId, a.config, a.variables, signal);
        break;
      case 'createTopic': {
        const created = await this.client.createTopic(agentId, branchId, { name: a.name, content: a.content }, signal);
        // The spec shows the answer only as "topic": where it has no id, the new topic is found in the list.
        const topicId = created.topicId ?? (await this.findCreatedTopic(target, a, signal).catch(unlisted));
        if (topicId === undefined) {
          // Where topics cannot be listed, the file stays as sent under its own key, so it is not created again.
          record(a.key, a.path, a.text);
          return;
        }
        // The new id goes into the file's front matter at once: from now on the file is that topic.
        const text = topicText({ name: created.name, content: created.content, topicId });
        await this.fs.write(a.path, text);
        record(a.key, a.path, undefined);
        record(topicKey(topicId), a.path, text);
        return;
      }
    }
    record(a.key, a.path, a.text);
  }

  /**
   * The id of a topic just created whose answer did not say it: the one topic with that name and content that
   * the base does not know yet. When it cannot be told apart, the push stops here; the next push recognises the
   * created topic by name and content (as after a lost answer) instead of creating it twice.
   */
  private async findCreatedTopic(
    target: BaseSnapshot,
    a: { name: string; content: string },
    signal?: AbortSignal,
  ): Promise<string> {
    const known = new Set(Object.keys(target.docs));
    const candidates = (await this.client.listTopics(target.agentId, target.branchId, signal)).filter(
      (t) => t.name === a.name && t.content === a.content && !known.has(topicKey(t.topicId)),
    );
    if (candidates.length !== 1)
      throw new Error(
        `The platform created topic "${a.name}" but did not say its id, and it could not be told apart in the list. Push again: the topic is recognised by its name and content and not created twice.`,
      );
    return candidates[0]!.topicId;
  }

  /**
   * Settles a conflict with the person's result (undefined: the document is deleted). The file
   * takes the result and the base takes the platform's side, so the result is what the next
   * push sends.
   */
  async resolve(path: string, result: string | undefined): Promise<void> {
    const base = await this.requireBase();
    const key = await this.conflictKey(base, path);
    if (key === undefined) throw new Error(`${path} has no conflict to settle.`);
    if (result === undefined) await this.fs.remove(path);
    else await this.fs.write(path, result);
    const remote = base.conflicts[key]!.remote;
    const docs = { ...base.docs };
    if (remote === null) Reflect.deleteProperty(docs, key);
    else docs[key] = { path, text: remote };
    const conflicts = { ...base.conflicts };
    Reflect.deleteProperty(conflicts, key);
    await writeBase(this.fs, { ...base, docs, conflicts });
  }

  /** The recorded conflict of a file, if it has one. */
  async conflictAt(path: string): Promise<FileConflict | undefined> {
    const base = await this.recover();
    const key = await this.conflictKey(base, path);
    return key === undefined ? undefined : { key, ...base.conflicts[key]! };
  }

  /**
   * Records the conflict a status read found in a file, as a pull records one (the platform's side as it is now,
   * the file as it is), so it is settled the same way. Undefined when the two sides combine after all: a pull
   * merges them.
   */
  async recordConflict(path: string, signal?: AbortSignal): Promise<FileConflict | undefined> {
    const base = await this.recover();
    const known = await this.conflictKey(base, path);
    if (known !== undefined) return { key: known, ...base.conflicts[known]! };
    const remote = await fetchRemote(this.client, { ...base, known: base.docs }, signal);
    const s = sidesOf(base, await readLocal(this.fs, base, remote), remote).find(
      (x) => (x.local?.path ?? x.basePath) === path,
    );
    const mine = s && localText(s);
    if (!s || mine === s.remoteText || s.remoteText === s.base || mine === s.base || mergedDoc(s) !== false)
      return undefined;
    const record: ConflictRecord = { remote: s.remoteText ?? null, ...(s.local ? { local: s.local.text } : {}) };
    await writeBase(this.fs, { ...base, conflicts: { ...base.conflicts, [s.key]: record } });
    return { key: s.key, ...record };
  }

  /**
   * Begins the file merge of a recorded conflict: the file as it is becomes the fixed "Yours" side (stored here),
   * and `marked` is the text the file takes next, the regions both sides changed between conflict markers (the
   * caller writes it, through the editor where the file is open). A file that holds markers already has a merge
   * under way and gets no new text.
   */
  async startMerge(path: string): Promise<(FileConflict & { marked?: string }) | undefined> {
    const base = await this.recover();
    const key = await this.conflictKey(base, path);
    if (key === undefined) return undefined;
    const record = base.conflicts[key]!;
    const file = await this.fs.read(path);
    if (file === undefined || record.remote === null || hasConflictMarkers(file)) return { key, ...record };
    const started: ConflictRecord = { ...record, local: file };
    await writeBase(this.fs, { ...base, conflicts: { ...base.conflicts, [key]: started } });
    const marked = withConflictMarkers(file, base.docs[key]?.text ?? '', record.remote);
    return { key, ...started, ...(marked !== undefined ? { marked } : {}) };
  }

  /** The key of the recorded conflict at a path: by the base's path, else by the file there. */
  private async conflictKey(base: BaseSnapshot, path: string): Promise<DocKey | undefined> {
    return (
      Object.keys(base.conflicts).find((k) => (base.docs[k]?.path ?? conflictPath(k)) === path) ??
      [...(await readLocal(this.fs, base)).values()].find((l) => l.path === path && base.conflicts[l.key])?.key
    );
  }

  /** Puts files back as the base has them (all, or the given paths); files added locally are removed. */
  async discard(paths?: readonly string[]): Promise<void> {
    const base = await this.recover();
    for (const f of computeStatus(base, await readLocal(this.fs, base))) {
      if (f.state === 'unchanged' || (paths && !paths.includes(f.path))) continue;
      const entry = base.docs[f.key];
      if (f.local === 'added' || !entry) await this.fs.remove(f.path);
      else {
        if (f.path !== entry.path) await this.fs.remove(f.path);
        await this.fs.write(entry.path, entry.text);
      }
    }
  }

  /** Rewrites the files for another branch of the agent, like `git checkout`; refused while edits are unpushed. */
  async switchBranch(branch: { branchId: string; name: string }, signal?: AbortSignal): Promise<void> {
    const base = await this.checkPlatformData(signal);
    const unpushed = computeStatus(base, await readLocal(this.fs, base)).filter((f) => f.state !== 'unchanged');
    if (unpushed.length > 0) throw new UnpushedEditsError(unpushed);
    const manifest = (await this.manifest()) ?? { agentId: base.agentId, name: base.agentId, profile: '', branch };
    const remote = await fetchRemote(
      this.client,
      { agentId: base.agentId, branchId: branch.branchId, known: base.docs },
      signal,
    );
    await this.moveTo({ ...manifest, branch }, base.docs, remote, base.dataId);
  }

  /**
   * Points the folder at a branch: the base of the new branch is stored first, with the base of
   * the old one kept as `switching.from`; then agent.json; then the files; then the base without
   * the mark. Anything stopped half way is finished by `recover`.
   */
  private async moveTo(
    manifest: AgentManifest,
    from: Record<DocKey, BaseEntry>,
    remote: RemoteDocs,
    dataId: string | undefined,
  ): Promise<void> {
    const docs = baseDocs(from, remote);
    const base: BaseSnapshot = {
      ...emptyBase(manifest.agentId, manifest.branch.branchId),
      docs,
      switching: { from },
      ...(dataId !== undefined ? { dataId } : {}),
    };
    const docsJson = JSON.stringify(docs);
    await writeBase(this.fs, base, docsJson);
    await this.fs.write(AGENT_MANIFEST, serializeAgentManifest(manifest));
    await this.finishSwitch(base, docsJson);
  }

  /** Files still as the old branch had them take the new branch's text; anything edited since is left as a local edit. */
  private async finishSwitch(base: BaseSnapshot, docsJson?: string): Promise<BaseSnapshot> {
    const before = new Map(Object.values(base.switching?.from ?? {}).map((e) => [e.path, e.text]));
    const after = new Map(Object.values(base.docs).map((e) => [e.path, e.text]));
    const paths = [...new Set([...before.keys(), ...after.keys()])];
    const texts = await this.fs.readMany(paths);
    const currentOf = new Map(paths.map((p, i) => [p, texts[i]]));
    await forEachLimit(paths, WRITES_AT_ONCE, async (path) => {
      const current = currentOf.get(path);
      const target = after.get(path);
      if (current === target || current !== before.get(path)) return;
      if (target === undefined) await this.fs.remove(path);
      else await this.fs.write(path, target);
    });
    const done: BaseSnapshot = { ...base };
    delete done.switching;
    await writeBase(this.fs, done, docsJson);
    return done;
  }

  /** The base, after finishing a branch switch that was stopped half way. */
  private async recover(): Promise<BaseSnapshot> {
    const base = await this.requireBase();
    return base.switching ? this.finishSwitch(base) : base;
  }

  private async requireBase(): Promise<BaseSnapshot> {
    const base = await readBase(this.fs);
    if (!base) throw new Error('This folder is not checked out from the platform: check an agent out first.');
    return base;
  }
}

/** Undefined where the platform does not list topics (an assumed endpoint); any other failure stands. */
function unlisted(err: unknown): undefined {
  if (isAssumptionFailure(err)) return undefined;
  throw err;
}

/** Where a conflict of a document the base does not hold lives (added on both sides). */
function conflictPath(key: DocKey): string | undefined {
  return kindOfKey(key) === 'realtime' ? realtimePath(configOfKey(key)) : undefined;
}

/** The base entries of the platform's documents: each at the path `from` gives its key, the others at a path of their own. */
function baseDocs(from: Record<DocKey, BaseEntry>, remote: RemoteDocs): Record<DocKey, BaseEntry> {
  const docs: Record<DocKey, BaseEntry> = {};
  const taken = new Set<string>();
  for (const [key, doc] of remote) {
    const kept = from[key]?.path;
    if (kept) {
      docs[key] = { path: kept, text: docText(doc) };
      taken.add(kept);
    }
  }
  for (const [key, doc] of remote) {
    if (docs[key]) continue;
    const path = pathForDoc(key, doc.kind === 'topic' ? doc.name : undefined, taken);
    taken.add(path);
    docs[key] = { path, text: docText(doc) };
  }
  return docs;
}
