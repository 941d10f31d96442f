// package.json and the code name the same commands, context keys and tree items: a menu that names a
// contextValue no item has, or an item no menu reaches, is a menu that silently never shows.
import * as assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ALERT_RULE_STATES } from '../../../src/contract/alerts';
import {
  Command,
  ContextKey,
  ItemContext,
  PanelType,
  producedContextValues,
  RULE_STATES,
  TEST_CONTROLLER,
  TestMessageValue,
  View,
  type ViewId,
  WITHOUT_MENU,
} from '../../../src/ui/ids';

interface MenuEntry {
  command: string;
  when?: string;
}
interface Manifest {
  contributes: {
    commands: Array<{ command: string; enablement?: string }>;
    menus: Record<string, MenuEntry[]>;
    views: Record<string, Array<{ id: string }>>;
    viewsWelcome: Array<{ view: string; when?: string }>;
  };
}

const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as Manifest;
const commandIds = new Set<string>(Object.values(Command));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sourceFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

test('every command in package.json is a named id, and every named id is contributed', () => {
  const contributed = manifest.contributes.commands.map((c) => c.command);
  assert.deepEqual([...contributed].sort(), [...commandIds].sort());
  const inMenus = Object.values(manifest.contributes.menus)
    .flat()
    .map((m) => m.command);
  assert.deepEqual(
    inMenus.filter((c) => !commandIds.has(c)),
    [],
    'menus name commands that are not contributed',
  );
});

test('every named command is registered exactly once, always through its name', () => {
  const registered: string[] = [];
  for (const file of [...sourceFiles('src/ui'), 'src/extension.ts']) {
    for (const m of readFileSync(file, 'utf8').matchAll(/registerCommand\(\s*([^,)]+)/g)) {
      const arg = m[1]!.trim();
      assert.match(arg, /^Command\.\w+$/, `${file} registers ${arg}: use a name from src/ui/ids.ts`);
      registered.push(arg.slice('Command.'.length));
    }
  }
  assert.deepEqual([...registered].sort(), Object.keys(Command).sort());
});

test('the context keys of when clauses are the named ones, and each named key is read somewhere', () => {
  const { menus, commands, viewsWelcome } = manifest.contributes;
  const clauses = [
    ...Object.values(menus)
      .flat()
      .map((m) => m.when),
    ...commands.map((c) => c.enablement),
    ...viewsWelcome.map((w) => w.when),
  ].filter((w): w is string => Boolean(w));
  const views = new Set<string>([...Object.values(View), ...Object.values(PanelType)]);
  // What `controllerId ==` and `testMessage ==` compare with are the Testing view's own names, not context keys.
  const compared = (key: string) =>
    clauses.flatMap((w) =>
      [...w.matchAll(new RegExp(`${key}\\s*==\\s*(agentWorkbench\\.[\\w.]+)`, 'g'))].map((m) => m[1]),
    );
  assert.deepEqual([...new Set(compared('controllerId'))], [TEST_CONTROLLER]);
  assert.deepEqual([...new Set(compared('testMessage'))].sort(), Object.values(TestMessageValue).sort());
  const values = new Set<string>([TEST_CONTROLLER, ...Object.values(TestMessageValue)]);
  const read = new Set(
    clauses
      .flatMap((w) => [...w.matchAll(/agentWorkbench\.[\w.]+/g)].map((m) => m[0]))
      .filter((k) => !views.has(k) && !values.has(k)),
  );
  assert.deepEqual([...read].sort(), Object.values(ContextKey).sort());
});

test('the views of package.json are the named views', () => {
  assert.deepEqual(
    Object.values(manifest.contributes.views)
      .flat()
      .map((v) => v.id)
      .sort(),
    Object.values(View).sort(),
  );
});

/** The viewItem tests of a when clause, each as a predicate over a contextValue. */
function viewItemTests(when: string): Array<{ text: string; matches: (value: string) => boolean }> {
  const tests: Array<{ text: string; matches: (value: string) => boolean }> = [];
  for (const m of when.matchAll(/viewItem == ([\w.-]+)/g)) tests.push({ text: m[0], matches: (v) => v === m[1] });
  for (const m of when.matchAll(/viewItem =~ \/(.+?)\/(?=\s|\)|$)/g)) {
    const re = new RegExp(m[1]!);
    tests.push({ text: m[0], matches: (v) => re.test(v) });
  }
  return tests;
}

const itemMenus = manifest.contributes.menus['view/item/context']!.map((entry) => {
  const view = /view == ([\w.]+)/.exec(entry.when ?? '')?.[1] as ViewId | undefined;
  assert.ok(view && Object.values(View).includes(view), `${entry.command}: an item menu names its view`);
  return { ...entry, view, tests: viewItemTests(entry.when ?? '') };
});
const produced = producedContextValues();

test('every viewItem test of a menu matches an item its view can show', () => {
  for (const menu of itemMenus) {
    assert.ok(menu.tests.length > 0, `${menu.command} in ${menu.view} tests no viewItem`);
    for (const t of menu.tests) {
      assert.ok(
        produced[menu.view].some((v) => t.matches(v)),
        `${menu.command}: "${t.text}" matches no item of ${menu.view}`,
      );
    }
  }
});

test('every item a view can show is reached by a menu, except those meant to have none', () => {
  for (const [view, values] of Object.entries(produced) as Array<[ViewId, string[]]>) {
    for (const value of values) {
      const menus = itemMenus
        .filter((m) => m.view === view && m.tests.some((t) => t.matches(value)))
        .map((m) => m.command);
      if (WITHOUT_MENU.includes(value)) assert.deepEqual(menus, [], `${value} is listed as having no menu`);
      else assert.ok(menus.length > 0, `no menu reaches ${value} in ${view}`);
    }
  }
});

test('Copy Id reaches the items that stand for one thing, not their groups', () => {
  const copyTargets = (view: ViewId) =>
    produced[view].filter((v) =>
      itemMenus.some((m) => m.command === Command.copyId && m.view === view && m.tests.some((t) => t.matches(v))),
    );
  const agents = copyTargets(View.agents);
  for (const group of ['deployments', 'realtimeConfigs', 'numbers', 'knowledge', 'numberEnvironment'])
    assert.ok(!agents.includes(group), `Copy Id on ${group}`);
  for (const one of ['agent', 'branch.main', 'topic', 'deployment.live', 'phoneNumber', 'connector', 'realtimeConfig'])
    assert.ok(agents.includes(one), `no Copy Id on ${one}`);
  const alerts = copyTargets(View.alerts);
  assert.ok(
    !alerts.includes('alertRules') && !alerts.includes('webhookEndpoints') && !alerts.includes('currentAlerts'),
  );
  assert.ok(
    alerts.includes('alertRule.enabled.ok') &&
      alerts.includes('currentAlert') &&
      alerts.includes('webhookEndpoint.secretStored'),
  );
});

test("the rule states named for menus are the contract's", () => {
  assert.deepEqual([...RULE_STATES], [...ALERT_RULE_STATES]);
});

test('contextValues say what a person can do with the item', () => {
  assert.equal(ItemContext.deployment('sandbox', true), 'deployment.sandbox.active.promotable');
  assert.equal(ItemContext.deployment('live', true), 'deployment.live.active', 'nothing is beyond live');
  assert.equal(
    ItemContext.deployment('pre-release', false),
    'deployment.pre-release',
    'only the active deployment is promoted',
  );
  assert.equal(ItemContext.environment('sandbox'), 'environment.sandbox.publishable');
  assert.equal(ItemContext.environment('pre-release', true), 'environment.pre-release.promotable');
  assert.equal(ItemContext.environment('live', true), 'environment.live', 'nothing is beyond live');
  assert.equal(ItemContext.branch({ isMain: true, checkedOut: true }), 'branch.main.checkedOut');
  assert.equal(ItemContext.alertRule(false, 'alert'), 'alertRule.disabled.alert');
  assert.equal(ItemContext.webhookEndpoint(true), 'webhookEndpoint.secretStored');
});
