import type { ParsedFile } from '../agentFile';
import type { Finding } from '../problem';
import type { FileRule } from '../rule';

/**
 * Sizes this editor holds behavior and topics to before they are sent. The specification shows no bound; these are
 * the bounds the local platform enforces (src/localPlatform/ownLimits.ts, docs/api-assumptions.md "Limits"), so a
 * file that passes here is taken by the local platform too.
 */
export const SIZE_LIMITS = { behavior: 100_000, topicName: 128, topicContent: 100_000 } as const;

function over(file: ParsedFile, start: number, end: number, what: string, length: number, max: number): Finding {
  return {
    path: file.path,
    start,
    end,
    message: `The ${what} is ${length} characters; at most ${max} are taken (a bound of this editor and the local platform, not of the specification)`,
  };
}

export const contentSize: FileRule = {
  id: 'content-size',
  severity: 'warning',
  summary: 'behavior, topic name or topic content longer than the size taken before sending',
  scope: 'file',
  check(file) {
    if (file.unreadable) return [];
    if (file.kind === 'behavior') {
      const length = file.text.replace(/\r?\n$/, '').length;
      return length > SIZE_LIMITS.behavior
        ? [over(file, SIZE_LIMITS.behavior, file.text.length, 'behavior', length, SIZE_LIMITS.behavior)]
        : [];
    }
    const topic = file.topic;
    if (!topic) return [];
    const out: Finding[] = [];
    if (topic.name.length > SIZE_LIMITS.topicName)
      out.push(over(file, topic.nameStart, topic.nameEnd, "topic's name", topic.name.length, SIZE_LIMITS.topicName));
    if (topic.content.length > SIZE_LIMITS.topicContent)
      out.push(
        over(
          file,
          topic.contentStart + SIZE_LIMITS.topicContent,
          topic.contentStart + topic.content.length,
          "topic's content",
          topic.content.length,
          SIZE_LIMITS.topicContent,
        ),
      );
    return out;
  },
};
