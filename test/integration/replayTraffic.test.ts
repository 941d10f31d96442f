// Replaying real traffic from the editor, against the local platform it runs: 200 conversations callers had with the
// support agent in live, replayed against sandbox where one topic changed (the changed group is exactly the
// conversations that reached it), a cancel that keeps what finished, Save as Test Cases on a group, and a filter
// line that finds nothing.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { parse as parseYaml } from 'yaml';
import type { EditorReplay, TrafficReplays } from '../../src/ui/testing/trafficReplay';
import type { ReplayNode } from '../../src/ui/testing/replayResults';
import { serializeAgentManifest } from '../../src/workspace/agentManifest';
import type { Shown } from '../support/editor/prompts';
import { editorSuite } from '../support/editor/suite';
import { callerChat, shortenReturnsInSandbox } from '../support/editor/supportDesk';

/** What callers say, by kind of conversation; `returns` marks those that reach the returns topic. */
const SCRIPTS: { lines: string[]; returns: boolean }[] = [
  { lines: ['What are your opening hours?', 'Thanks, that helps. Bye!'], returns: false },
  { lines: ['Can I return something without the receipt?'], returns: true },
  { lines: ['How long does delivery take?', "That's all, thank you."], returns: false },
  { lines: ['Can you book me a taxi?'], returns: false },
  { lines: ['What are your opening hours?', 'How long do I have to return an item?'], returns: true },
  { lines: ['Can I speak to a person, please?'], returns: false },
  { lines: ['Is delivery free?', 'Do you sell concert tickets?'], returns: false },
];

const exec = <T = unknown>(command: string, ...args: unknown[]) =>
  vscode.commands.executeCommand<T>(`agentWorkbench.${command}`, ...args);

suite('Replaying traffic', function () {
  this.timeout(120_000);
  const editor = editorSuite({ seed: 'base', reset: 'once' });
  let replays: TrafficReplays;
  const made = { all: [] as string[], returns: new Set<string>() };
  const folder = () => vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'replay-desk');

  /** `count` conversations in live, made through the Chat API as callers make them. */
  const liveTraffic = async (count: number) => {
    const chat = callerChat(editor, 'live');
    let next = 0;
    const worker = async () => {
      while (next < count) {
        const script = SCRIPTS[next++ % SCRIPTS.length]!;
        const created = await chat('create', {});
        assert.equal(created.status, 200, JSON.stringify(created.body));
        const id = created.body.conversation_id;
        made.all.push(id);
        if (script.returns) made.returns.add(id);
        let ended = false;
        for (const message of script.lines)
          ended = (await chat('respond', { conversation_id: id, message })).body.end_conversation === true;
        if (!ended) await chat('close', { conversation_id: id }, 'PUT');
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
  };

  suiteSetup(async () => {
    replays = editor.api.testing!.trafficReplays();
    await liveTraffic(200);
    // Main's returns topic says 14 days, published to sandbox: live still says 30.
    await shortenReturnsInSandbox(editor);
    const manifest = serializeAgentManifest({
      agentId: 'ag_support',
      name: 'Support Desk',
      profile: 'local',
      branch: { branchId: 'br_support_main', name: 'main' },
    });
    await vscode.workspace.fs.writeFile(
      vscode.Uri.joinPath(folder(), 'agent.json'),
      new TextEncoder().encode(manifest),
    );
  });

  suiteTeardown(async () => {
    replays.clear();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const uri of [folder(), vscode.Uri.joinPath(folder(), '..', '.agent-workbench', 'replays')])
      await vscode.workspace.fs.delete(uri, { recursive: true, useTrash: false }).then(undefined, () => undefined);
    await editor.admin.reset('demo');
  });

  /** Replay Traffic… from the Agents view's agent, answering live, sandbox and the filter line. */
  const replayFromEditor = async (line: string, more: (s: Shown) => string | undefined = () => undefined) => {
    editor.ui.shown.length = 0;
    editor.ui.setAnswer((s: Shown) =>
      s.kind === 'pick' && /^The source of truth/.test(s.message)
        ? 'live'
        : s.kind === 'pick' && /^The candidate/.test(s.message)
          ? 'sandbox'
          : s.kind === 'input' && /^Filters as on the command line/.test(s.message)
            ? line
            : more(s),
    );
    return exec<EditorReplay | { nothingFound: string } | undefined>('replayTraffic', { agentId: 'ag_support' });
  };

  test('[CONV-3] [CONV-6] 200 live conversations replayed against sandbox with a changed topic: "answer changed" is exactly those that reached it, the report kept and opened, the groups in Replay Results', async () => {
    const since = await editor.admin.lastRequestSeq();
    const replay = await replayFromEditor('--limit 200');
    if (!(replay && 'result' in replay)) {
      const asked = (await editor.admin.requests({ since })).filter((q) => /conversations/.test(q.path));
      assert.fail(
        `${JSON.stringify(editor.ui.shown.map((s) => s.message))}; asked ${JSON.stringify(asked).slice(0, 1500)}`,
      );
    }
    const r = replay.result;
    assert.equal(r.counts.selected, 200);
    assert.deepEqual(new Set(r.conversations.map((c) => c.id)), new Set(made.all));
    assert.equal(r.counts.replayed, 200);
    assert.equal(r.counts.failed, 0);
    assert.deepEqual(new Set(r.groups['answer changed']), made.returns);
    assert.equal(r.groups['answer changed'].length, made.returns.size);
    for (const kind of ['handoff changed', 'ended earlier', 'ended later', 'out of domain now'] as const)
      assert.deepEqual(r.groups[kind], [], kind);
    assert.equal(r.counts.unchanged, 200 - made.returns.size);
    assert.equal(
      replay.summary,
      `Replayed 200 of 200 conversations of local live against local sandbox: ${200 - made.returns.size} unchanged, ${made.returns.size} changed (answer changed ${made.returns.size}), 0 failed.`,
    );
    assert.ok(editor.ui.shown.some((s) => s.kind === 'info' && s.message === replay.summary));
    // The report, as the command line writes it, kept in the workspace and shown rendered.
    const kept = new TextDecoder().decode(await vscode.workspace.fs.readFile(replay.uri!));
    assert.equal(kept, replay.markdown);
    assert.match(kept, /^## ⚠️ Replay: 200 conversations of local live against local sandbox/);
    assert.match(kept, /within <del>30<\/del><ins>14<\/ins> days/);
    assert.match(replay.uri!.path, /\/\.agent-workbench\/replays\/.*-live-against-sandbox\.md$/);
    // The filter line is remembered for the workspace.
    assert.equal(replays.lastLine, '--limit 200');
    assert.equal(replays.replays.at(-1), replay);
  });

  test('Save as Test Cases on the "answer changed" group writes one case per conversation into a new tests/ file, opened', async () => {
    const replay = replays.replays.find((r) => r.result.counts.selected === 200)!;
    editor.ui.shown.length = 0;
    editor.ui.setAnswer(() => undefined);
    const node: ReplayNode = { kind: 'group', replay, group: 'answer changed' };
    const saved = await exec<{ uri: vscode.Uri; count: number }>('saveReplayGroupAsTests', node);
    assert.ok(saved, JSON.stringify(editor.ui.shown));
    assert.equal(saved.count, made.returns.size);
    assert.equal(saved.uri.path, vscode.Uri.joinPath(folder(), 'tests', 'replayed-answer-changed.yaml').path);
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(saved.uri));
    const doc = parseYaml(text) as { agent?: string; cases?: { name: string; turns: unknown[] }[] };
    assert.equal(doc.agent, 'ag_support');
    assert.deepEqual(new Set(doc.cases?.map((c) => c.name)), made.returns);
    assert.ok(
      doc.cases?.every((c) => c.turns.length > 0),
      'every case has the turns of its conversation',
    );
    assert.ok(
      vscode.window.visibleTextEditors.some((e) => e.document.uri.toString() === saved.uri.toString()),
      'the file is open',
    );
    // Once more: a new file beside it, never over the first.
    const again = await exec<{ uri: vscode.Uri }>('saveReplayGroupAsTests', node);
    assert.match(again.uri.path, /replayed-answer-changed-2\.yaml$/);
  });

  test('cancelling keeps what finished: the report says cancelled, the rest is counted as not sent', async () => {
    const seen = replays.onDidProgress((p) => {
      if (p.done >= 10) replays.cancel();
    });
    try {
      const replay = await replayFromEditor('--limit 200');
      assert.ok(replay && 'result' in replay);
      const r = replay.result;
      assert.equal(r.cancelled, true);
      assert.ok(r.conversations.length >= 10 && r.conversations.length < 200, `${r.conversations.length}`);
      assert.equal(r.counts.notSent, 200 - r.conversations.length);
      assert.match(replay.markdown, /\*\*Cancelled:\*\* what finished is kept\./);
      assert.match(replay.summary, /Cancelled: what finished is kept\.$/);
    } finally {
      seen.dispose();
    }
  });

  test('[CONV-4] a filter line is checked as typed, and one that finds nothing says so and what to change', async () => {
    const refused = await replayFromEditor('--since yesterday');
    assert.equal(refused, undefined);
    const box = editor.ui.shown.find((s) => s.kind === 'input')!;
    assert.match(box.refused ?? '', /--since must be an ISO 8601 date or time/);
    const none = await replayFromEditor('--channel VOICE-SIP');
    assert.deepEqual(none, { nothingFound: (none as { nothingFound: string }).nothingFound });
    const warned = editor.ui.shown.find((s) => s.kind === 'warning' && /No finished conversation/.test(s.message))!;
    assert.match(warned.message, /of live matches: on VOICE-SIP\. .*drop --channel or name another channel/);
    assert.deepEqual(warned.items, ['Change Filters']);
  });
});
