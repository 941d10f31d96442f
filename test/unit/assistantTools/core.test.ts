// The assistant tools' core without a platform: input checks, bounded answers, failure wording, and the change
// tools' descriptions, over a ToolContext of plain objects.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { ASSISTANT_TOOLS, describeChange, findTool, invokeTool } from '../../../src/assistantTools/catalog';
import type { AgentFolder, ToolContext } from '../../../src/assistantTools/context';
import { bounded, MAX_ANSWER_CHARS, pageOf } from '../../../src/assistantTools/output';
import type { Words } from '../../../src/assistantTools/tool';
import { PlatformError } from '../../../src/client/errors';
import type { Deployment } from '../../../src/contract/agents';
import { Redactor } from '../../../src/core/redact';

const SECRET = 'sk_live_0123456789abcdef';
const plain: Words = {
  t: (m, ...a) => m.replace(/\{(\d+)\}/g, (_w, i: string) => String(a[Number(i)])),
};

const folder: AgentFolder = {
  path: '/ws/support',
  label: 'support',
  manifest: {
    agentId: 'ag_support',
    name: 'Support Desk',
    profile: 'local',
    branch: { branchId: 'br_main', name: 'main' },
  },
  sameConnection: true,
};

const deployment = (id: string, environment: string): Deployment => ({
  id,
  accountId: 'acme',
  agentId: 'ag_support',
  environment,
  artifactVersion: 'art_1',
  version: '7',
  createdBy: 'owner',
  createdAt: '2026-01-05T09:00:00Z',
  metadata: {},
});

/** A context of plain objects: every method the tests do not give fails loudly. */
function contextWith(over: Partial<ToolContext>): ToolContext {
  const redactor = new Redactor();
  redactor.add(SECRET);
  const base = {
    connectionName: 'the test connection',
    redact: (t: string) => redactor.redact(t),
    agentFolders: async () => [folder],
    chatTargets: () => ['local'],
  };
  return new Proxy({ ...base, ...over } as ToolContext, {
    get(target, key: string) {
      if (key in target) return (target as unknown as Record<string, unknown>)[key];
      return () => Promise.reject(new Error(`the test context has no ${key}`));
    },
  });
}

test('every tool has a unique agentWorkbench_ name, a description for the model and an object schema without extra properties', () => {
  const names = ASSISTANT_TOOLS.map((t) => t.name);
  assert.equal(new Set(names).size, names.length);
  for (const t of ASSISTANT_TOOLS) {
    assert.match(t.name, /^agentWorkbench_[A-Za-z]+$/);
    assert.ok(t.description.length > 80, t.name);
    assert.equal(t.inputSchema.additionalProperties, false, t.name);
    assert.equal(t.kind === 'change', typeof t.describe === 'function', `${t.name}: change tools describe the change`);
  }
  assert.deepEqual(
    ASSISTANT_TOOLS.filter((t) => t.kind === 'change').map((t) => t.name),
    [
      'agentWorkbench_pull',
      'agentWorkbench_push',
      'agentWorkbench_publishToSandbox',
      'agentWorkbench_promote',
      'agentWorkbench_createBranch',
    ],
  );
});

test('bad input is refused with each thing to fix and the properties the tool takes; nothing runs', async () => {
  let ran = false;
  const context = contextWith({
    createBranch: async () => {
      ran = true;
      return { name: 'x', branchId: 'br_x' };
    },
  });
  const answer = await invokeTool(findTool('agentWorkbench_createBranch')!, { name: '', colour: 1 }, context);
  assert.equal(answer.isError, true);
  assert.equal(ran, false);
  assert.match(answer.text, /^The input of agentWorkbench_createBranch was not used: fix these and call it again\./);
  assert.match(answer.text, /- name must be at least 1 characters/);
  assert.match(answer.text, /- colour is not a known property/);
  assert.match(answer.text, /Its properties: agentId, name \(required\)\./);

  const missing = await invokeTool(findTool('agentWorkbench_transcript')!, {}, context);
  assert.match(missing.text, /- conversationId is required/);
});

test('[AUTH-2] input holding a secret the connection knows is refused, and the secret is not echoed', async () => {
  const context = contextWith({});
  const answer = await invokeTool(
    findTool('agentWorkbench_sendMessages')!,
    { messages: [`my key is ${SECRET}`] },
    context,
  );
  assert.equal(answer.isError, true);
  assert.match(answer.text, /holds a secret .* Credentials come from the connection \(the test connection\)/);
  assert.ok(!answer.text.includes(SECRET));
});

test('[AUTH-2] an answer is masked of secrets, whatever the platform put in it', async () => {
  const context = contextWith({
    agentFolders: async () => [{ ...folder, manifest: { ...folder.manifest, name: `Support ${SECRET}` } }],
    folderStatus: async () => [],
  });
  const answer = await invokeTool(findTool('agentWorkbench_agentFolders')!, {}, context);
  assert.equal(answer.isError, false);
  assert.ok(!answer.text.includes(SECRET));
  assert.match(answer.text, /Support ‹redacted›/);
});

test('a list is paged with a note of what was left out and the offset that comes next', () => {
  const items = Array.from({ length: 25 }, (_, i) => i);
  assert.deepEqual(pageOf(items, 0, 10, 'items'), {
    shown: items.slice(0, 10),
    note: 'Showing items 1–10 of 25; 15 more left out: call again with offset 10.',
  });
  assert.equal(pageOf(items, 20, 10, 'items').note, 'Showing items 21–25 of 25.');
  assert.match(pageOf(items, 30, 10, 'items').note!, /No items at offset 30: there are 25/);
  assert.equal(pageOf(items.slice(0, 3), 0, 10, 'items').note, undefined);
});

test('a long answer is cut at a line end with how much was left out and how to ask for less', () => {
  const text = Array.from({ length: 2000 }, (_, i) => `line ${i} ${'x'.repeat(20)}`).join('\n');
  const cut = bounded(text);
  assert.ok(cut.length <= MAX_ANSWER_CHARS, `${cut.length}`);
  assert.match(cut, /\n… \d+ more characters \(\d+ lines\) left out of this answer: ask for fewer items \(limit\)/);
  const kept = cut.split('\n').slice(0, -1);
  assert.ok(
    kept.every((l) => /^line \d+ x{20}$/.test(l)),
    'no line is cut in half',
  );
  assert.equal(bounded('short'), 'short');
});

test("a platform error is answered in the person's sentence; a change whose answer was lost may have been done", async () => {
  const lost = new PlatformError({ family: 'agents', kind: 'network', operation: 'Publish to sandbox', host: 'h:1' });
  const context = contextWith({
    agent: async () => ({ agentId: 'ag_support', name: 'Support Desk', description: '' }),
    publish: async () => {
      throw lost;
    },
    branches: async () => {
      throw new PlatformError({
        family: 'agents',
        kind: 'validation',
        operation: 'List the branches of agent ag_support',
        status: 405,
        assumption: { row: 'List and get branches: not shown', manualPath: 'Enter the branch id by hand instead.' },
      });
    },
    deployments: async () => [],
    numbers: async () => [],
  });
  const publish = await invokeTool(findTool('agentWorkbench_publishToSandbox')!, {}, context);
  assert.equal(publish.isError, true);
  assert.ok(publish.text.startsWith(lost.message.slice(0, 40)), publish.text);
  assert.match(
    publish.text,
    /It may have been done before the answer was lost: read the state again before trying again\.$/,
  );

  const details = await invokeTool(findTool('agentWorkbench_agentDetails')!, {}, context);
  assert.equal(details.isError, false);
  assert.match(
    details.text,
    /Branches: could not be read\. .*The spec does not show it and we assumed it .*Enter the branch id by hand instead\./,
  );
  assert.match(details.text, /Numbers \(0\):/);
});

test('the change tools say exactly what will change; a promotion to live, or to where cannot be read, is marked live', async () => {
  const context = contextWith({
    agent: async () => ({ agentId: 'ag_support', name: 'Support Desk', description: '' }),
    deployments: async () => [deployment('dep_1', 'sandbox'), deployment('dep_2', 'pre-release')],
    folderStatus: async () => [
      { key: 'behavior', path: 'behavior.md', state: 'modifiedLocally', local: 'modified' },
      { key: 'realtime:hours', path: 'realtime/hours.json', state: 'modifiedLocally', local: 'modified' },
      { key: 'topic:kt_1', path: 'knowledge/faq.md', state: 'unchanged', local: 'none' },
    ],
  });
  const promote = findTool('agentWorkbench_promote')!;
  const toPre = await promote.describe!({ deploymentId: 'dep_1' }, context, plain);
  assert.equal(
    toPre.message,
    'Promote version 7 (dep_1) of agent Support Desk (ag_support) from sandbox to pre-release.',
  );
  assert.equal(toPre.live, false);
  const toLive = await promote.describe!({ deploymentId: 'dep_2' }, context, plain);
  assert.equal(toLive.live, true);
  assert.equal(toLive.title, 'Promote Support Desk (ag_support) to LIVE');
  assert.match(toLive.message, /from pre-release to live\.\nLive callers will reach this version\./);
  const unknown = await promote.describe!({ deploymentId: 'dep_9' }, context, plain);
  assert.equal(unknown.live, true);
  assert.match(
    unknown.message,
    /Its environment could not be read \(deployment dep_9 is not among the agent's deployments\), so it may be the step to live\./,
  );

  const push = await findTool('agentWorkbench_push')!.describe!({}, context, plain);
  assert.match(
    push.message,
    /^Push to branch main of agent Support Desk from support\.\nFiles that will be sent:\n {2}behavior\.md: edited here, not pushed\n {2}realtime\/hours\.json/,
  );
  assert.ok(!push.message.includes('faq.md'));
  assert.match(push.message, /take effect at once, on every environment that uses them, live included/);
  assert.equal(push.live, true);

  const branch = await findTool('agentWorkbench_createBranch')!.describe!({ name: 'trial' }, context, plain);
  assert.equal(
    branch.message,
    'Create the branch "trial" of agent Support Desk (ag_support) on the platform. No environment changes.',
  );

  const publish = await findTool('agentWorkbench_publishToSandbox')!.describe!({}, context, plain);
  assert.match(publish.message, /^Publish the current draft of main of agent Support Desk \(ag_support\) to sandbox/);
});

test('a folder is named by path, label or agent; with several and none named, the answer lists them', async () => {
  const other: AgentFolder = {
    ...folder,
    path: '/ws/bank',
    label: 'bank',
    manifest: { ...folder.manifest, agentId: 'ag_bank', name: 'Bank' },
  };
  const context = contextWith({ agentFolders: async () => [folder, other], diagnostics: async () => [] });
  const check = findTool('agentWorkbench_checkAgentFolder')!;
  const none = await invokeTool(check, {}, context);
  assert.equal(none.isError, true);
  assert.match(
    none.text,
    /The workspace has 2 agent folders; name one as "folder": support \(Support Desk, ag_support\); bank \(Bank, ag_bank\)\./,
  );
  assert.match((await invokeTool(check, { folder: 'ag_bank' }, context)).text, /No problems in bank \(agent Bank\)\./);
  assert.match((await invokeTool(check, { folder: '/ws/support/' }, context)).text, /No problems in support/);
  assert.match((await invokeTool(check, { folder: 'elsewhere' }, context)).text, /No agent folder is "elsewhere"/);
});

test('a folder checked out with another connection profile is refused by the sync tools', async () => {
  const context = contextWith({ agentFolders: async () => [{ ...folder, sameConnection: false }] });
  const answer = await invokeTool(findTool('agentWorkbench_pull')!, {}, context);
  assert.equal(answer.isError, true);
  assert.match(
    answer.text,
    /support was checked out with the connection profile "local", not the test connection: switch to that profile first\./,
  );
});

test('a confirmation is described only for good input, masked, and says what is wrong otherwise', async () => {
  const context = contextWith({
    agent: async () => ({ agentId: 'ag_support', name: `Support ${SECRET}`, description: '' }),
  });
  const tool = findTool('agentWorkbench_createBranch')!;
  const good = await describeChange(tool, { name: 'trial' }, context, plain);
  assert.ok('message' in good);
  assert.ok(!good.message.includes(SECRET));
  const bad = await describeChange(tool, { name: 42 }, context, plain);
  assert.ok('problem' in bad);
  assert.match(bad.problem, /- name must be of type string/);
  const noFolder = await describeChange(findTool('agentWorkbench_push')!, { folder: 'elsewhere' }, context, plain);
  assert.deepEqual(noFolder, {
    problem: 'No agent folder is "elsewhere". The agent folders: support (Support Desk, ag_support).',
  });
  assert.ok('problem' in (await describeChange(findTool('agentWorkbench_transcript')!, {}, context, plain)));
});
