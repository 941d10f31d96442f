import type { Rule } from './rule';
import { behaviorLengthBudget, behaviorProhibitionOnly, behaviorScriptedLine } from './rules/behavior';
import { fileIgnoredByPush, fileNameRefused, fileUnreadable } from './rules/files';
import { agentJsonInvalid, agentNameLength } from './rules/manifest';
import { topicNearDuplicate } from './rules/nearDuplicates';
import { personalData } from './rules/personalData';
import { realtimeVariables } from './rules/realtime';
import { secret } from './rules/secrets';
import { contentSize } from './rules/sizes';
import { topicContentEmpty, topicDuplicateName, topicNameEmpty } from './rules/topics';

/** Every rule, each with its page docs/rules/<id>.md. */
export const RULES: readonly Rule[] = [
  agentJsonInvalid,
  agentNameLength,
  fileUnreadable,
  fileIgnoredByPush,
  fileNameRefused,
  contentSize,
  topicNameEmpty,
  topicContentEmpty,
  topicDuplicateName,
  topicNearDuplicate,
  secret,
  personalData,
  behaviorLengthBudget,
  behaviorProhibitionOnly,
  behaviorScriptedLine,
  realtimeVariables,
];

export function ruleById(id: string): Rule | undefined {
  return RULES.find((r) => r.id === id);
}
