/**
 * Puts the hostile corpus into a local platform's data, through its public APIs where they take the text and its
 * admin API where a person elsewhere would have written it (a teammate's edit, a recorded call). Every text field the
 * editor shows gets every entry of the corpus, whole, at the field's maximum length where it has one; one character
 * more is sent too and must be refused with a message that names the field. The end-to-end suite
 * (test/e2e/hostileContent.spec.mjs) seeds with it and then looks; the unit test
 * (test/unit/localPlatform/hostileContent.test.ts) reads everything back unchanged.
 *
 * It talks to the platform at an origin over HTTP only, so the end-to-end suite can seed the editor's own platform.
 */
import type { ConnectionReply } from '../../src/localPlatform/adminApi';
import { AGENT_NAME_MAX } from '../../src/contract/agents';
import { ALERT_RULE_NAME_MAX } from '../../src/contract/alerts';
import { LOCAL_LIMITS } from '../../src/localPlatform/ownLimits';
import { HOSTILE_CORPUS, type HostileEntry, ONE_MEGABYTE, cut, joined, sized } from './hostileCorpus';
import { LocalAdmin } from './localAdmin';

/** One field the editor shows, and the entries of the corpus put into it whole. */
export interface SeededField {
  readonly field: string;
  /** Through which API it was written. */
  readonly through: string;
  /** The names of the entries it holds whole. */
  readonly entries: readonly string[];
  /** Its longest accepted value, in characters, where the platform has a limit. */
  readonly max?: number;
}

/** A value one character over a field's limit, and what the platform said. */
export interface Refusal {
  readonly field: string;
  readonly max: number;
  readonly status: number;
  readonly message: string;
}

export interface HostileSeed {
  readonly connection: ConnectionReply;
  /** One agent per entry (its name and description), and one whose name and description are as long as taken. */
  readonly agents: ReadonlyArray<{ agentId: string; name: string; description: string; entry?: string }>;
  readonly longAgent: { agentId: string; name: string; description: string };
  /** The long agent's branches: one named by each entry, and one as long as a name is taken. */
  readonly branches: ReadonlyArray<{ branchId: string; name: string; entry?: string }>;
  /** Topics on the served agent's main branch, published to sandbox: one per entry, and the longest taken. */
  readonly topics: ReadonlyArray<{ topicId: string; name: string; content: string; keyword?: string; entry?: string }>;
  /** Who edited the topics (the admin edit's user): every entry. */
  readonly topicEditor: string;
  readonly deploymentMessage: string;
  /** Alert rules (the account's 10), their names holding every entry; each fires on one conversation. */
  readonly rules: ReadonlyArray<{ id: string; name: string; entries: string[] }>;
  /** Webhook endpoints (all but one of the account's 10), their names and addresses holding every entry. */
  readonly endpoints: ReadonlyArray<{ id: string; name: string; url: string; entries: string[] }>;
  /** A recorded conversation with every entry in every text, a 1 MB one, and a chat with hostile metadata. */
  readonly conversations: { hostile: string; large: string; chat: string };
  /** The chat conversation's message (every entry), as the Chat API took it. */
  readonly chatMessage: string;
  readonly fields: readonly SeededField[];
  readonly refusals: readonly Refusal[];
}

/** The entries whose text `value` holds whole. */
export function entriesIn(value: string): string[] {
  return HOSTILE_CORPUS.filter((e) => value.includes(e.text)).map((e) => e.name);
}

/**
 * The entries packed whole into at most `slots` values of at most `max` characters each, joined by a space: the
 * longest first (or the shortest), each into the first value it fits; `left` are the ones that fit nowhere.
 */
export function packed(
  max: number,
  slots: number,
  order: 'longest first' | 'shortest first' = 'longest first',
): { values: string[][]; left: string[] } {
  const bins: HostileEntry[][] = Array.from({ length: slots }, () => []);
  const left: string[] = [];
  const length = (bin: readonly HostileEntry[]) => bin.reduce((n, e) => n + e.text.length, Math.max(0, bin.length - 1));
  const sorted = [...HOSTILE_CORPUS].sort((a, b) => b.text.length - a.text.length);
  for (const e of order === 'longest first' ? sorted : sorted.reverse()) {
    const bin = bins.find((b) => length([...b, e]) <= max);
    if (bin) bin.push(e);
    else left.push(e.text);
  }
  return { values: bins.filter((b) => b.length > 0).map((b) => b.map((e) => e.text)), left };
}

/** The start of the longest topic's content; the rest is as long as the platform takes. */
const LONGEST_ANSWER = 'The longest answer, about zqlongest: ';

/** The name of the custom metric that holds the i-th entry. */
export const metricKey = (i: number) => `HOSTILE_${i + 1}`;

/** A word the agent's retrieval finds only in one topic: the entry's name without its dashes, in letters. */
export function keywordOf(entry: HostileEntry): string {
  return `zq${entry.name.replace(/[^a-z]/g, '')}`;
}

interface Reply {
  status: number;
  body: { message?: string; error_message?: string; errors?: Array<{ field: string; message: string }> } & Record<
    string,
    unknown
  >;
}

async function send(method: string, url: string, headers: Record<string, string>, body?: unknown): Promise<Reply> {
  const res = await fetch(url, {
    method,
    headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  let parsed: unknown = {};
  try {
    parsed = text ? JSON.parse(text) : {};
  } catch {
    parsed = { message: text };
  }
  return { status: res.status, body: parsed as Reply['body'] };
}

/** Seeds the platform at `origin` (reset to the base seed first) with the corpus. */
export async function seedHostile(origin: string, options: { reset?: boolean } = {}): Promise<HostileSeed> {
  const admin = LocalAdmin.atOrigin(origin);
  if (options.reset !== false) await admin.reset('base');
  const connection = await admin.connection();
  const build = `${origin}${connection.bases.build}`;
  const runtime = `${origin}${connection.bases.runtime}`;
  const agentsKey = { 'x-api-key': connection.keys.agents };
  const alertsKey = { 'x-api-key': connection.keys.alerts };
  const chatKeys = { 'X-API-KEY': connection.keys.chat, 'X-TOKEN': connection.connectors.chatToken };
  const project = connection.projects[0]!;
  const refusals: Refusal[] = [];
  const fields: SeededField[] = [];
  const ok = (what: string, r: Reply, status = [200, 201]) => {
    if (!status.includes(r.status)) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
    return r.body;
  };
  /** Sends one character over a limit; the platform must refuse it with a message naming the field. */
  const refused = async (field: string, max: number, r: Promise<Reply>) => {
    const reply = await r;
    const message = [
      reply.body.message,
      reply.body.error_message,
      ...(reply.body.errors ?? []).map((e) => `${e.field}: ${e.message}`),
    ]
      .filter(Boolean)
      .join('; ');
    refusals.push({ field, max, status: reply.status, message });
  };
  const all = HOSTILE_CORPUS.map((e) => e.name);

  // Agents: one named and described by each entry; one with the longest name and description the platform takes.
  const agents: Array<{ agentId: string; name: string; description: string; entry?: string }> = [];
  for (const e of HOSTILE_CORPUS) {
    const body = ok(
      `agent ${e.name}`,
      await send('POST', `${build}/v1/agents`, agentsKey, { name: e.text, description: e.text }),
    );
    agents.push({ agentId: String(body.agentId), name: e.text, description: e.text, entry: e.name });
  }
  const longAgent = {
    name: cut(joined(), AGENT_NAME_MAX),
    description: cut(`${joined()} ${sized(LOCAL_LIMITS.agentDescription)}`, LOCAL_LIMITS.agentDescription),
    agentId: '',
  };
  longAgent.agentId = String(
    ok(
      'the long agent',
      await send('POST', `${build}/v1/agents`, agentsKey, { name: longAgent.name, description: longAgent.description }),
    ).agentId,
  );
  agents.push(longAgent);
  fields.push(
    { field: 'agent name', through: 'POST /v1/agents', entries: all, max: AGENT_NAME_MAX },
    { field: 'agent description', through: 'POST /v1/agents', entries: all, max: LOCAL_LIMITS.agentDescription },
  );
  await refused(
    'agent name',
    AGENT_NAME_MAX,
    send('POST', `${build}/v1/agents`, agentsKey, { name: sized(AGENT_NAME_MAX + 1) }),
  );
  await refused(
    'agent description',
    LOCAL_LIMITS.agentDescription,
    send('POST', `${build}/v1/agents`, agentsKey, {
      name: 'Too long',
      description: sized(LOCAL_LIMITS.agentDescription + 1),
    }),
  );

  // Branches of the long agent: made under plain names, then named by each entry as a teammate's edit elsewhere would.
  const branches: Array<{ branchId: string; name: string; entry?: string }> = [];
  const branchOf = async (plain: string, name: string, entry?: string) => {
    const made = ok(
      `branch ${plain}`,
      await send('POST', `${build}/v1/agents/${longAgent.agentId}/branches`, agentsKey, { name: plain }),
    );
    const branchId = String(made.branchId);
    await admin.editBranch(longAgent.agentId, branchId, { name });
    branches.push({ branchId, name, ...(entry ? { entry } : {}) });
  };
  for (const [i, e] of HOSTILE_CORPUS.entries()) await branchOf(`hostile-${i}`, e.text, e.name);
  await branchOf('hostile-longest', sized(LOCAL_LIMITS.branchName));
  fields.push({ field: 'branch name', through: 'admin branch edit', entries: all, max: LOCAL_LIMITS.branchName });
  await refused(
    'branch name',
    LOCAL_LIMITS.branchName,
    send('POST', `${build}/v1/agents/${longAgent.agentId}/branches`, agentsKey, {
      name: 'x'.repeat(LOCAL_LIMITS.branchName + 1),
    }),
  );
  const renamed = await admin
    .editBranch(longAgent.agentId, branches[0]!.branchId, { name: sized(LOCAL_LIMITS.branchName + 1) })
    .then(
      () => ({ status: 200, body: {} }) as Reply,
      (err: { status: number; body: Reply['body'] }) => ({ status: err.status, body: err.body }),
    );
  await refused('branch name (a rename)', LOCAL_LIMITS.branchName, Promise.resolve(renamed));

  // Topics of the served agent's main branch, each answering to a word of its own, edited by a "teammate" whose
  // name is the whole corpus; then the draft is published to sandbox, where the Chat API answers from it.
  const agentId = project.agentId;
  const main = ok('main branch', await send('GET', `${build}/v1/agents/${agentId}/branches`, agentsKey)) as {
    branches?: Array<{ branchId: string; name: string }>;
  };
  const mainId = main.branches?.find((b) => b.name === 'main')?.branchId;
  if (!mainId) throw new Error(`${agentId} has no main branch listed`);
  const topicEditor = joined();
  const topicsWanted = [
    ...HOSTILE_CORPUS.map((e) => ({
      name: e.text,
      content: `The answer about ${keywordOf(e)}: ${e.text}`,
      keyword: keywordOf(e),
      entry: e.name,
    })),
    {
      name: cut(joined(), LOCAL_LIMITS.topicName),
      content: `${LONGEST_ANSWER}${sized(LOCAL_LIMITS.topicContent - LONGEST_ANSWER.length)}`,
      keyword: 'zqlongest',
    },
  ];
  const edited = await admin.editBranch(agentId, mainId, {
    user: topicEditor,
    upsertTopics: topicsWanted.map(({ name, content }) => ({ name, content })),
  });
  const topics = topicsWanted.map((t) => {
    const made = edited.topics.find((x) => x.name === t.name && x.content === t.content);
    if (!made) throw new Error(`the topic ${t.keyword} was not made`);
    return { topicId: made.topicId, ...t };
  });
  if (topics.at(-1)!.content.length !== LOCAL_LIMITS.topicContent)
    throw new Error('the longest topic is not at the limit');
  fields.push(
    { field: 'topic name', through: 'admin branch edit', entries: all, max: LOCAL_LIMITS.topicName },
    { field: 'topic content', through: 'admin branch edit', entries: all, max: LOCAL_LIMITS.topicContent },
    { field: 'who edited a topic', through: 'admin branch edit', entries: entriesIn(topicEditor) },
  );
  const topicsPath = `${build}/v1/agents/${agentId}/branches/${mainId}/knowledge-base/topics`;
  await refused(
    'topic name',
    LOCAL_LIMITS.topicName,
    send('POST', topicsPath, agentsKey, { name: sized(LOCAL_LIMITS.topicName + 1), content: 'x' }),
  );
  await refused(
    'topic content',
    LOCAL_LIMITS.topicContent,
    send('POST', topicsPath, agentsKey, { name: 'Too long', content: sized(LOCAL_LIMITS.topicContent + 1) }),
  );
  const deploymentMessage = cut(joined(), LOCAL_LIMITS.deploymentMessage);
  ok(
    'publish',
    await send('POST', `${build}/v1/agents/${agentId}/deployments/publish`, agentsKey, {
      environment: 'sandbox',
      deploymentMessage,
    }),
  );
  fields.push({
    field: 'deployment message',
    through: 'POST …/deployments/publish',
    entries: entriesIn(deploymentMessage),
    max: LOCAL_LIMITS.deploymentMessage,
  });
  await refused(
    'deployment message',
    LOCAL_LIMITS.deploymentMessage,
    send('POST', `${build}/v1/agents/${agentId}/deployments/publish`, agentsKey, {
      environment: 'sandbox',
      deploymentMessage: sized(LOCAL_LIMITS.deploymentMessage + 1),
    }),
  );

  // A chat through the Chat API: hostile integration attributes, a message of every entry with hostile metadata.
  const chatMessage = joined();
  const created = ok(
    'chat create',
    await send('POST', `${runtime}/v1/${connection.accountId}/${connection.projectId}/chat/create`, chatKeys, {
      integration_attributes: Object.fromEntries(HOSTILE_CORPUS.map((e) => [e.text, e.text])),
    }),
  );
  const chat = String(created.conversation_id);
  const respond = (body: Record<string, unknown>) =>
    send('POST', `${runtime}/v1/${connection.accountId}/${connection.projectId}/chat/respond`, chatKeys, {
      conversation_id: chat,
      ...body,
    });
  ok(
    'chat respond',
    await respond({
      message: chatMessage,
      metadata: Object.fromEntries(
        HOSTILE_CORPUS.map((e) => [e.name === 'prototype-keys' ? '__proto__' : e.name, e.text]),
      ),
    }),
  );
  await refused('chat message', LOCAL_LIMITS.chatMessage, respond({ message: sized(LOCAL_LIMITS.chatMessage + 1) }));
  fields.push(
    { field: 'chat message', through: 'POST …/chat/respond', entries: all, max: LOCAL_LIMITS.chatMessage },
    { field: 'message metadata (state)', through: 'POST …/chat/respond', entries: all },
    { field: 'integration attributes (state)', through: 'POST …/chat/create', entries: all },
  );

  // Recorded conversations: every entry in every text of a record, and one of 1 MB texts.
  // In sandbox, where the Local profile's conversations list and chart look first.
  const hostile = await admin.recordConversation({
    environment: 'sandbox',
    channel: joined(),
    variant_id: 'var_hostile',
    variant_name: joined(),
    from_number: joined(),
    to_number: joined(),
    handoff: true,
    handoff_reason: joined(),
    handoff_destination: joined(),
    metrics: Object.fromEntries(HOSTILE_CORPUS.map((e, i) => [metricKey(i), e.text])),
    state: {
      ...Object.fromEntries(HOSTILE_CORPUS.map((e) => [e.text, e.text])),
      nested: { [joined()]: [joined(), { deeper: joined() }] },
    },
    turns: HOSTILE_CORPUS.map((e) => ({
      user_input: e.text,
      agent_response: e.text,
      translated_user_input: e.text,
      english_agent_response: e.text,
      user_input_dtmf: e.text,
      intents: [e.text],
      entities: { [e.text]: e.text },
    })),
  });
  // Custom metrics are in a record once the project enables them (the spec's "selectable response metrics").
  const settings = await admin.setProjectSettings(connection.projectId, {});
  await admin.setProjectSettings(connection.projectId, {
    responseMetrics: [...settings.responseMetrics, ...HOSTILE_CORPUS.map((_e, i) => metricKey(i))],
  });
  const large = await admin.recordConversation({
    environment: 'sandbox',
    channel: 'WEBCHAT',
    variant_name: ONE_MEGABYTE.text.slice(0, 1000),
    turns: [{ user_input: ONE_MEGABYTE.text, agent_response: ONE_MEGABYTE.text }],
    state: { note: ONE_MEGABYTE.text },
  });
  fields.push(
    {
      field: 'transcript: user and agent text, translations, keypad input',
      through: 'admin recorded conversation',
      entries: [...all, ONE_MEGABYTE.name],
    },
    { field: 'transcript: intents and entities', through: 'admin recorded conversation', entries: all },
    { field: 'conversation state', through: 'admin recorded conversation', entries: [...all, ONE_MEGABYTE.name] },
    { field: 'conversation metrics', through: 'admin recorded conversation', entries: all },
    {
      field: 'channel, variant, numbers, handoff reason and destination',
      through: 'admin recorded conversation',
      entries: all,
    },
  );

  // Alert rules: the account's 10, their names holding every entry; each fires on one conversation in 5 minutes.
  const rules: Array<{ id: string; name: string; entries: string[] }> = [];
  const ruleNames = packed(ALERT_RULE_NAME_MAX, 10);
  if (ruleNames.left.length > 0) throw new Error('the corpus no longer fits into the names of 10 alert rules');
  for (const texts of ruleNames.values) {
    const name = texts.join(' ');
    const body = ok(
      'alert rule',
      await send('POST', `${build}/v1/alert-rules`, alertsKey, {
        name,
        project_id: connection.projectId,
        metric: 'call_volume',
        operator: '>=',
        threshold_value: 1,
        window_duration: '5m',
      }),
    );
    rules.push({ id: String(body.id), name, entries: entriesIn(name) });
  }
  fields.push({
    field: 'alert rule name (and firing alert)',
    through: 'POST /v1/alert-rules',
    entries: all,
    max: ALERT_RULE_NAME_MAX,
  });
  await refused(
    'alert rule name',
    ALERT_RULE_NAME_MAX,
    send('PATCH', `${build}/v1/alert-rules/${rules[0]!.id}`, alertsKey, { name: sized(ALERT_RULE_NAME_MAX + 1) }),
  );

  // Webhook endpoints: 9 of the account's 10 (the editor's receiver takes the last), names and addresses hostile.
  // They take resolved alerts only and point at the discard port of this machine: nothing is delivered anywhere.
  const endpoints: Array<{ id: string; name: string; url: string; entries: string[] }> = [];
  // Packed another way than the rules' names, so an endpoint is never named as a rule is.
  const endpointNames = packed(LOCAL_LIMITS.webhookEndpointName, 9, 'shortest first');
  for (const [i, texts] of endpointNames.values.entries()) {
    const name = texts.join(' ');
    // The entries no name has room for are in the first address; every address holds some.
    const url = `http://127.0.0.1:9/${[...(i === 0 ? endpointNames.left : []), ...texts].join(' ')}`;
    const body = ok(
      'webhook endpoint',
      await send('POST', `${build}/v1/webhook-endpoints`, alertsKey, { name, url, event_types: ['alerts.resolved'] }),
    );
    endpoints.push({ id: String(body.id), name, url, entries: entriesIn(`${name} ${url}`) });
  }
  fields.push(
    {
      field: 'webhook endpoint name',
      through: 'POST /v1/webhook-endpoints',
      entries: entriesIn(endpoints.map((e) => e.name).join(' ')),
      max: LOCAL_LIMITS.webhookEndpointName,
    },
    {
      field: 'webhook endpoint address',
      through: 'POST /v1/webhook-endpoints',
      entries: entriesIn(endpoints.map((e) => e.url).join(' ')),
    },
  );
  await refused(
    'webhook endpoint name',
    LOCAL_LIMITS.webhookEndpointName,
    send('POST', `${build}/v1/webhook-endpoints`, alertsKey, {
      name: sized(LOCAL_LIMITS.webhookEndpointName + 1),
      url: 'http://127.0.0.1:9/',
      event_types: ['alerts.resolved'],
    }),
  );

  return {
    connection,
    agents,
    longAgent,
    branches,
    topics,
    topicEditor,
    deploymentMessage,
    rules,
    endpoints,
    conversations: { hostile: hostile.id, large: large.id, chat },
    chatMessage,
    fields,
    refusals,
  };
}
