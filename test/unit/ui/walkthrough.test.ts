// The Getting Started walkthrough: a step for saving a chat as a test and running it, and every step ticked when it
// is done (a context key the extension sets once the thing happened), never when its command merely opens a picker.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

interface Step {
  id: string;
  title: string;
  completionEvents: string[];
}

const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as {
  contributes: { walkthroughs: Array<{ steps: Step[] }> };
};
const nls = JSON.parse(readFileSync('package.nls.json', 'utf8')) as Record<string, string>;
const steps = manifest.contributes.walkthroughs[0]!.steps;

function sources(dir: string): string {
  return readdirSync(dir)
    .map((name) => join(dir, name))
    .map((p) => (statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? readFileSync(p, 'utf8') : ''))
    .join('\n');
}

test('the walkthrough has a step to save a chat as a test and run it, after the chat', () => {
  const ids = steps.map((s) => s.id);
  assert.equal(ids.indexOf('test'), ids.indexOf('chat') + 1);
  const step = steps.find((s) => s.id === 'test')!;
  assert.match(nls[step.title.slice(1, -1)] ?? '', /test and run it/);
  assert.match(nls['walkthrough.test.description'] ?? '', /Save as Test/);
});

test('every step is ticked when it is done: by a context key the extension sets, not by a command that was started', () => {
  const src = sources('src');
  for (const step of steps) {
    assert.ok(step.completionEvents.length > 0, step.id);
    for (const event of step.completionEvents) {
      assert.ok(!event.startsWith('onCommand:'), `${step.id}: ${event} ticks when the command starts`);
      const key = /^onContext:(.+)$/.exec(event)?.[1];
      assert.ok(key, `${step.id}: ${event}`);
      const own = /^agentWorkbench\.walkthrough\.(\w+)$/.exec(key)?.[1];
      if (own) assert.match(src, new RegExp(`(tickWhenDone|walkthroughStepDone)\\('${own}'\\)`), `${key} is never set`);
      else assert.ok(src.includes(`'${key}'`), `${key} is never set`);
    }
  }
});
