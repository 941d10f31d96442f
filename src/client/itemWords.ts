/** What the collections of the platform's paths hold, in words, singular. */
const COLLECTIONS: Record<string, string> = {
  agents: 'agent',
  branches: 'branch',
  topics: 'topic',
  deployments: 'deployment',
  'real-time-configs': 'real-time config',
  'alert-rules': 'alert rule',
  'webhook-endpoints': 'webhook endpoint',
  'outbound-calling': 'call',
};

/**
 * The item a path names by id, in words: `/v1/agents/a1/branches/b2/knowledge-base/topics/tp3` is "topic tp3", and
 * `/v1/webhook-endpoints/we_1/rotate-secret` is "webhook endpoint we_1" (the last collection followed by an id).
 */
export function itemOfPath(path: string): string {
  const [beforeQuery = ''] = path.split('?', 1);
  const segments = beforeQuery.split('/').filter(Boolean).map(decode);
  // The last collection followed by an id: read from the end, each segment with the one after it.
  for (let i = segments.length - 2; i >= 0; i--) {
    const [collection, id] = segments.slice(i, i + 2);
    const word = collection === undefined ? undefined : COLLECTIONS[collection];
    if (word && id !== undefined) return `${word} ${id}`;
  }
  return 'the item';
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
