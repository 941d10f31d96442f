import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Branch, Deployment, Topic } from '../../../src/contract/agents';
import { plainL10n } from '../../../src/ui/common/l10n';
import {
  agentTooltip,
  branchTooltip,
  deploymentTooltip,
  realtimeConfigHeading,
  topicTooltip,
} from '../../../src/ui/explorer/agents/agentTooltips';
import { cut, HOSTILE_CORPUS, LOCAL_LIMITS, ONE_MEGABYTE, showsAsText } from '../../support/hostileCorpus';
import { renderMarkdown, tagsOf, textOf } from '../../support/markdownRender';

/** The platform's time text as it came (a hostile "time" is shown as written too). */
const exact = (iso: string) => iso;
/** What the Agents view's hovers may hold: their own emphasis, ids in code, a rule; nothing made of the platform's text. */
const OWN_TAGS = new Set(['p', 'br', 'strong', 'code', 'hr']);

function rendered(markdown: string): { html: string; text: string } {
  const html = renderMarkdown(markdown);
  const stray = tagsOf(html).filter((t) => !OWN_TAGS.has(t));
  assert.deepEqual(stray, [], `no element made of platform text: ${html.slice(0, 400)}`);
  return { html, text: textOf(html) };
}

describe('Hostile content: the Agents view hovers show platform text as written', () => {
  for (const e of HOSTILE_CORPUS)
    it(`${e.name} (${e.tries}) in every field of an agent, branch, topic, deployment and real-time config`, () => {
      const t = e.text;
      const agent = rendered(
        agentTooltip(plainL10n, exact, {
          agentId: t,
          name: t,
          description: t,
          projectId: t,
          createdAt: t,
          createdBy: t,
        }),
      );
      assert.ok(showsAsText(agent.text, `${t}${t}`), `name and description: ${agent.text}`);
      assert.ok(showsAsText(agent.text, `Agent id: ${t}`), agent.text);
      assert.ok(showsAsText(agent.text, `Created ${t} by ${t}`), agent.text);

      const branch: Branch = { branchId: t, name: t, createdAt: t, createdBy: t, updatedAt: t, mergedAt: t };
      const b = rendered(branchTooltip(plainL10n, exact, branch, ['default']));
      for (const line of [`${t} (default)`, `Branch id: ${t}`, `Created ${t} by ${t}`, `Updated ${t}`, `Merged ${t}`])
        assert.ok(showsAsText(b.text, line), `${line} in ${b.text}`);

      const topic: Topic = { topicId: t, name: t, content: t, updatedAt: t, updatedBy: t };
      const tp = rendered(topicTooltip(plainL10n, exact, topic));
      for (const line of [t, `Topic id: ${t}`, `Updated ${t} by ${t}`]) assert.ok(showsAsText(tp.text, line), tp.text);

      const deployment: Deployment = {
        id: t,
        accountId: t,
        agentId: t,
        environment: t,
        artifactVersion: t,
        version: t,
        createdBy: t,
        createdAt: t,
        metadata: { message: t },
      };
      const d = rendered(deploymentTooltip(plainL10n, exact, deployment, { active: true, compared: false }));
      for (const line of [`Version ${t} · ${t}`, `Deployment id: ${t}`, `Artifact: ${t}`, `Deployed ${t} by`])
        assert.ok(showsAsText(d.text, line), `${line} in ${d.text}`);

      const c = rendered(realtimeConfigHeading(plainL10n, exact, { name: t, updatedAt: t }));
      assert.ok(showsAsText(c.text, `${t} · updated ${t}`), c.text);
    });

  it("a topic's hover shows its first 400 characters of the longest content the platform takes, as text", () => {
    const content = cut(ONE_MEGABYTE.text, LOCAL_LIMITS.topicContent);
    const { text } = rendered(topicTooltip(plainL10n, exact, { topicId: 'kt_1', name: 'Long', content }));
    assert.ok(showsAsText(text, `${content.slice(0, 400)}…`), text.slice(0, 500));
    assert.ok(text.length < 1_000, `the hover stays short (${text.length} characters)`);
  });
});
