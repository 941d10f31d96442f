import type { ParsedFile, TopicParts } from '../agentFile';
import { perObject } from '../perObject';
import type { Finding } from '../problem';
import type { FileRule, FolderRule } from '../rule';

/** The platform needs a name for every topic (AGENT-5); the file mirror cannot push one without it. */
export const topicNameEmpty: FileRule = {
  id: 'topic-name-empty',
  severity: 'error',
  summary: 'a topic whose name is empty',
  scope: 'file',
  check(file) {
    const topic = file.topic;
    if (!topic || topic.name.trim() !== '') return [];
    const fromFile = file.path.replace(/^.*\//, '').replace(/\.md$/, '');
    return [
      {
        path: file.path,
        start: topic.nameStart,
        end: topic.nameEnd,
        message: 'The topic has no name: give it one in the front matter ("name: Opening hours")',
        ...(topic.nameEnd > topic.nameStart || topic.nameStart > 0
          ? {
              fix: {
                title: `Name the topic "${fromFile}" after its file`,
                edits: [
                  { path: file.path, start: topic.nameStart, end: topic.nameEnd, newText: JSON.stringify(fromFile) },
                ],
              },
            }
          : {}),
      },
    ];
  },
};

/** An empty topic answers nothing and still takes a place in retrieval. */
export const topicContentEmpty: FileRule = {
  id: 'topic-content-empty',
  severity: 'warning',
  summary: 'a topic with no content',
  scope: 'file',
  check(file) {
    const topic = file.topic;
    if (!topic || topic.content.trim() !== '') return [];
    return [
      {
        path: file.path,
        start: topic.nameStart,
        end: topic.nameEnd,
        message: `${topic.name.trim() ? `The topic "${topic.name}"` : 'This topic'} has no content: write what the agent should know, or delete the file`,
      },
    ];
  },
};

/** The name the next free "<name> (n)" gives, among the names taken. */
function freeName(name: string, taken: ReadonlySet<string>): string {
  for (let n = 2; ; n++) {
    const candidate = `${name} (${n})`;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}

type NamedTopic = ParsedFile & { topic: TopicParts };

/** A topic's name as names are compared, kept with its parts (checked again on every keystroke in a large folder). */
const nameKey = perObject((topic: TopicParts): string => topic.name.trim().toLowerCase());

/** Two topics of one name: the agent cannot tell them apart, and neither can a person reading the branch. */
export const topicDuplicateName: FolderRule = {
  id: 'topic-duplicate-name',
  severity: 'warning',
  summary: 'two topics with the same name',
  scope: 'folder',
  check(files) {
    // The first topic of each name, and the names that more than one topic has: most folders have none, and this
    // runs on every keystroke in a topic, so nothing is made per topic beyond its entry in `first`.
    const first = new Map<string, NamedTopic>();
    const groups = new Map<string, NamedTopic[]>();
    for (const file of files) {
      const key = file.topic ? nameKey(file.topic) : '';
      if (!file.topic || key === '') continue;
      const named = file as NamedTopic;
      const seen = first.get(key);
      if (!seen) first.set(key, named);
      else {
        const group = groups.get(key);
        if (group) group.push(named);
        else groups.set(key, [seen, named]);
      }
    }
    if (groups.size === 0) return [];
    const taken = new Set(first.keys());
    const out: Finding[] = [];
    for (const key of first.keys()) {
      const group = groups.get(key);
      if (!group) continue;
      const sorted = [...group].sort((a, b) => a.path.localeCompare(b.path));
      // The first file keeps the name; every other one is told, with the first linked.
      const [first, ...rest] = sorted;
      if (!first) continue;
      for (const { path, topic } of rest) {
        const renamed = freeName(topic.name.trim(), taken);
        taken.add(renamed.toLowerCase());
        out.push({
          path,
          start: topic.nameStart,
          end: topic.nameEnd,
          message: `Another topic is also named "${topic.name.trim()}" (${first.path}): rename one of them`,
          related: [
            {
              path: first.path,
              start: first.topic.nameStart,
              end: first.topic.nameEnd,
              message: 'the other topic of this name',
            },
          ],
          ...(topic.nameEnd > topic.nameStart
            ? {
                fix: {
                  title: `Rename the topic to "${renamed}"`,
                  edits: [{ path, start: topic.nameStart, end: topic.nameEnd, newText: JSON.stringify(renamed) }],
                },
              }
            : {}),
        });
      }
    }
    return out;
  },
};
