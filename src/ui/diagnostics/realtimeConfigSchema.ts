import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Disposable, MutableDisposable } from '../../core/disposable';
import { checkJsonSchema } from '../../core/jsonSchema';
import { AGENT_MANIFEST, parseAgentManifest } from '../../workspace/agentManifest';
import { checkedOutWith } from '../connection/profileStore';
import type { ProfileModel, ProfileModels } from '../model/profileModels';
import { LINT_SOURCE, ruleLink } from './problemDiagnostics';

/** The rule id these problems carry, as the checks of agent folders and docs/rules name it. */
const REALTIME_RULE = 'realtime-variables';
/** How long typing pauses before the file is checked again. */
const DEBOUNCE_MS = 250;
/** `<agent folder>/realtime/<config>.json`. */
const REALTIME_FILE = /[\\/]realtime[\\/]([^\\/]+)\.json$/;

/**
 * The platform checks a real-time config's variables against the config's own JSON Schema. The editor's
 * shipped schema knows only that a file is an object of values; this check, as typed, applies the schema the platform
 * has for that config (read through the model, `GET …/real-time-configs`), so `"maxPartySize": "twelve"` shows
 * before a push meets the 422. It checks files of agent folders of the profile in use, and says nothing where the
 * platform cannot list the configs or does not know the config. Its problems carry the id of the rule that checks
 * the shipped schema, `realtime-variables`, whose page tells of both.
 */
export class RealtimeConfigSchemaCheck extends Disposable {
  private readonly diagnostics = this.register(vscode.languages.createDiagnosticCollection('agentWorkbench.realtime'));
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly watchModel = this.register(new MutableDisposable());
  private followed: ProfileModel | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly models: ProfileModels<object>,
  ) {
    super();
    this.register(vscode.workspace.onDidOpenTextDocument((d) => this.schedule(d)));
    this.register(vscode.workspace.onDidChangeTextDocument((e) => this.schedule(e.document)));
    this.register(
      vscode.workspace.onDidCloseTextDocument((d) => {
        this.diagnostics.delete(d.uri);
      }),
    );
    this.register(models.onDidChange(() => this.checkAll()));
    this.register({ dispose: () => this.timers.forEach((t) => clearTimeout(t)) });
    this.checkAll();
  }

  /** A config read anew (after a push or a refresh) may carry another schema: its open files are checked again. */
  private follow(model: ProfileModel): void {
    if (model === this.followed) return;
    this.followed = model;
    this.watchModel.value = model.agents.onDidChange((change) => {
      if (change.part === 'realtimeConfigs') this.checkAll();
    });
  }

  private checkAll(): void {
    for (const doc of vscode.workspace.textDocuments) this.schedule(doc);
  }

  private schedule(doc: vscode.TextDocument): void {
    if (doc.uri.scheme !== 'file' || !REALTIME_FILE.test(doc.uri.fsPath)) return;
    const key = doc.uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        void this.check(doc).catch(() => this.diagnostics.delete(doc.uri));
      }, DEBOUNCE_MS),
    );
  }

  private async check(doc: vscode.TextDocument): Promise<void> {
    const config = REALTIME_FILE.exec(doc.uri.fsPath)?.[1];
    const folder = path.dirname(path.dirname(doc.uri.fsPath));
    const manifest = parseAgentManifest(await readFile(path.join(folder, AGENT_MANIFEST), 'utf8').catch(() => ''));
    const model = this.models.active();
    if (!config || !manifest || !model || !checkedOutWith(manifest.profile, { id: model.profileId }))
      return this.clear(doc);
    this.follow(model);
    const configs = await model.agents
      .agent(manifest.agentId)
      .realtimeConfigs.get()
      .catch(() => undefined);
    const schema = configs?.find((c) => c.name === config)?.schema;
    const text = doc.getText();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      // A file that is not JSON yet: the JSON editor says so.
      return this.clear(doc);
    }
    // Typed on meanwhile: the check scheduled by that edit answers.
    if (this.isDisposed || doc.isClosed || doc.getText() !== text) return;
    if (!schema) return this.clear(doc);
    this.diagnostics.set(
      doc.uri,
      checkJsonSchema(schema, json).map((v) => {
        const name = v.path.split(/[.[]/)[0] ?? '';
        const at = name ? text.indexOf(JSON.stringify(name)) : -1;
        const start = doc.positionAt(Math.max(0, at));
        const range = at >= 0 ? doc.lineAt(start.line).range.with({ start }) : doc.lineAt(0).range;
        const problem = new vscode.Diagnostic(
          range,
          v.path
            ? vscode.l10n.t('"{0}" {1} (the schema of real-time config {2} on the platform)', v.path, v.message, config)
            : vscode.l10n.t(
                'The variables {0} (the schema of real-time config {1} on the platform)',
                v.message,
                config,
              ),
          vscode.DiagnosticSeverity.Error,
        );
        problem.source = LINT_SOURCE;
        problem.code = { value: REALTIME_RULE, target: ruleLink(this.extensionUri, REALTIME_RULE) };
        return problem;
      }),
    );
  }

  private clear(doc: vscode.TextDocument): void {
    if (!this.isDisposed) this.diagnostics.delete(doc.uri);
  }
}
