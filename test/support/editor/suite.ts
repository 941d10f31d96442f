import * as vscode from 'vscode';
import type { SeedName } from '../../../src/localPlatform/seed/seeds';
import { LocalAdmin } from '../localAdmin';
import { activateExtension, type LocalPlatformUrls, type WorkbenchExports } from './extension';
import { scriptedPrompts, type ScriptedPrompts } from './prompts';

/** What an integration suite drives the editor with: the extension, its local platform and the person's answers. */
export interface EditorSuite {
  /** What the extension's `activate()` returned. */
  readonly api: WorkbenchExports;
  /** The addresses of the local platform the editor started. */
  readonly urls: LocalPlatformUrls;
  /** Its admin API: reset and seed, faults, the clock, the request log. */
  readonly admin: LocalAdmin;
  /** The person's answers in place of the editor's dialogs. */
  readonly ui: ScriptedPrompts;
}

export interface EditorSuiteOptions {
  /** The platform's state the tests start from (`base` unless named). */
  seed?: SeedName;
  /**
   * When the platform is reset to `seed`: before each test (the default), once before the suite, or never (a suite
   * that resets in a hook of its own, after steps of its own).
   */
  reset?: 'each' | 'once' | 'never';
}

/**
 * The setup every integration suite of the editor shares, called first in the suite's body: before the suite it
 * activates the extension, starts the editor's local platform, switches to its profile and puts scripted prompts in
 * place of the editor's dialogs; before each test it resets the platform to `seed` (see `reset`) and forgets what was
 * asked, with the person dismissing everything again; after the suite (its own teardown first) it gives the
 * dialogs back. The fields can be read from the suite's own hooks on (its `suiteSetup` runs after this one):
 *
 *     const editor = editorSuite({ seed: 'demo' });
 *     suiteSetup(() => ({ api, urls, admin, ui } = editor));
 */
export function editorSuite(options: EditorSuiteOptions = {}): EditorSuite {
  const { seed = 'base', reset = 'each' } = options;
  let ready: EditorSuite | undefined;
  const get = (): EditorSuite => {
    if (!ready) throw new Error('editorSuite(): its fields are there from the suite setup on');
    return ready;
  };

  suiteSetup(async function () {
    // The dialogs are given back after the suite's own teardown, which may still ask something.
    const suite = this.test?.parent;
    if (!suite) throw new Error('editorSuite(): called outside a suite');
    suite.afterAll('give the dialogs back', () => {
      ready?.ui.dispose();
      ready = undefined;
    });
    const api = await activateExtension();
    const urls = await vscode.commands.executeCommand<LocalPlatformUrls | undefined>(
      'agentWorkbench.startLocalPlatform',
    );
    if (!urls) throw new Error('Start Local Platform gave no addresses');
    const admin = new LocalAdmin(urls.admin);
    if (reset === 'once') await admin.reset(seed);
    await vscode.commands.executeCommand('agentWorkbench.switchProfile', 'local');
    ready = { api, urls, admin, ui: scriptedPrompts(api) };
  });

  setup(async () => {
    const { admin, ui } = get();
    if (reset === 'each') await admin.reset(seed);
    ui.shown.length = 0;
    ui.setAnswer(() => undefined);
  });

  return {
    get api() {
      return get().api;
    },
    get urls() {
      return get().urls;
    },
    get admin() {
      return get().admin;
    },
    get ui() {
      return get().ui;
    },
  };
}
