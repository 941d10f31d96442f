// The Agents view's hovers as Markdown (no 'vscode': unit-tested with plain wording). Every text the platform gave
// (names, descriptions, ids, who and when, messages, content) goes through markdownText or markdownCode, so a name
// such as `![x](https://...)` or `<script>` is shown as written and never becomes an image, a link or markup.
import type { Agent, Branch, Deployment, Topic } from '../../../contract/agents';
import { markdownCode, markdownStrong, markdownText } from '../../../core/shownText';
import type { L10n } from '../../common/l10n';
import { actorText } from './deploymentActors';

/** A platform time as the hover shows it: the exact local time, or the platform's text when it is not a time. */
export type ExactTime = (iso: string) => string;

/** "Created <when> by <who>", or without "by" when the platform does not say who; Markdown. */
export function createdMarkdown(l10n: L10n, exact: ExactTime, iso: string, by: string | null | undefined): string {
  const at = markdownText(exact(iso));
  return by ? l10n.t('Created {0} by {1}', at, markdownText(by)) : l10n.t('Created {0}', at);
}

/** "Updated <when> by <who>", or without "by" when the platform does not say who; Markdown. */
export function updatedMarkdown(l10n: L10n, exact: ExactTime, iso: string, by: string | null | undefined): string {
  const at = markdownText(exact(iso));
  return by ? l10n.t('Updated {0} by {1}', at, markdownText(by)) : l10n.t('Updated {0}', at);
}

export function agentTooltip(l10n: L10n, exact: ExactTime, agent: Agent & { unverified?: boolean }): string {
  const parts = [markdownStrong(agent.name)];
  if (agent.description) parts.push(markdownText(agent.description));
  parts.push(`${l10n.t('Agent id')}: ${markdownCode(agent.agentId)}`);
  if (agent.unverified) parts.push(l10n.t('Added by id: this platform could not confirm that the id names an agent.'));
  if (agent.projectId) parts.push(`${l10n.t('Project')}: ${markdownCode(agent.projectId)}`);
  if (agent.createdAt) parts.push(createdMarkdown(l10n, exact, agent.createdAt, agent.createdBy));
  return parts.join('\n\n');
}

/** `states`: what the row says of the branch (default, checked out, merged), in our words. */
export function branchTooltip(l10n: L10n, exact: ExactTime, branch: Branch, states: readonly string[]): string {
  const parts = [
    `${markdownStrong(branch.name)}${states.length ? ` (${states.join(' · ')})` : ''}`,
    `${l10n.t('Branch id')}: ${markdownCode(branch.branchId)}`,
  ];
  if (branch.createdAt) parts.push(createdMarkdown(l10n, exact, branch.createdAt, branch.createdBy));
  if (branch.updatedAt) parts.push(l10n.t('Updated {0}', markdownText(exact(branch.updatedAt))));
  if (branch.mergedAt) parts.push(l10n.t('Merged {0}', markdownText(exact(branch.mergedAt))));
  return parts.join('\n\n');
}

/** The topic's first 400 characters are shown after its facts. */
export const TOPIC_PREVIEW = 400;

export function topicTooltip(l10n: L10n, exact: ExactTime, topic: Topic): string {
  const parts = [markdownStrong(topic.name), `${l10n.t('Topic id')}: ${markdownCode(topic.topicId)}`];
  if (topic.updatedAt) parts.push(updatedMarkdown(l10n, exact, topic.updatedAt, topic.updatedBy));
  const content = topic.content;
  parts.push('---', markdownText(content.length > TOPIC_PREVIEW ? `${content.slice(0, TOPIC_PREVIEW)}…` : content));
  return parts.join('\n\n');
}

export function deploymentTooltip(
  l10n: L10n,
  exact: ExactTime,
  d: Deployment,
  shown: { active: boolean; compared: boolean },
): string {
  const message = typeof d.metadata.message === 'string' ? d.metadata.message : '';
  const parts = [
    `${markdownStrong(l10n.t('Version {0}', d.version))} · ${markdownText(d.environment)}${shown.active ? ` · ${l10n.t('active')}` : ''}`,
    `${l10n.t('Deployment id')}: ${markdownCode(d.id)}`,
    `${l10n.t('Artifact')}: ${markdownCode(d.artifactVersion)}`,
    l10n.t('Deployed {0} by {1}', markdownText(exact(d.createdAt)), markdownText(actorText(l10n, d.createdBy))),
  ];
  if (message) parts.push(markdownText(message));
  if (shown.compared) parts.push(l10n.t('The comparison made before this promotion is kept: Open Comparison Report.'));
  return parts.join('\n\n');
}

/** The heading of a real-time config's hover; its variables follow as a JSON code block (appendCodeblock). */
export function realtimeConfigHeading(
  l10n: L10n,
  exact: ExactTime,
  config: { name: string; updatedAt?: string | undefined },
): string {
  const updated = config.updatedAt ? ` · ${l10n.t('updated {0}', markdownText(exact(config.updatedAt)))}` : '';
  return `${markdownStrong(config.name)}${updated}`;
}
