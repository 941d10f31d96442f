import { isMap, isSeq, parseDocument } from 'yaml';

/**
 * A conversation as it happened (in the chat playground, or as the platform recorded it), made into a new case of a
 * test file: its user turns, its handoff and end as they happened, and each answer as the `reference` a failing
 * turn's diff shows. The checks are loose on purpose (the answer's words are not checked): the person tightens
 * them to what must stay the same.
 */
export interface RecordedTurn {
  readonly user: string;
  readonly answer: string;
  readonly metadata?: Readonly<Record<string, unknown>>;
  /** The handoff of this turn; undefined when there was none. */
  readonly handoff?: { readonly destination?: string; readonly reason?: string };
  /** Whether the agent ended the conversation with this answer; undefined where that is not known. */
  readonly end?: boolean;
}

export interface RecordedConversation {
  readonly conversationId?: string;
  /** Where it happened: said in the case's comment only (a case naming an environment runs nowhere else). */
  readonly environment?: string;
  readonly variant?: string;
  readonly integrationAttributes?: Readonly<Record<string, unknown>>;
  readonly asrLangCode?: string;
  readonly ttsLangCode?: string;
  /** The agent's first answer, before any user turn. */
  readonly greeting?: string;
  readonly turns: readonly RecordedTurn[];
  /** Turns left out (silences, messages that got no answer), counted in the comment. */
  readonly leftOut?: number;
}

/** A YAML scalar: JSON's double-quoted strings are YAML's too, so any text reads back as written. */
const q = (text: string): string => JSON.stringify(text);

function flowMap(value: Readonly<Record<string, unknown>>): string {
  return `{ ${Object.entries(value)
    .map(([k, v]) => `${/^[A-Za-z_][\w-]*$/.test(k) ? k : q(k)}: ${JSON.stringify(v) ?? 'null'}`)
    .join(', ')} }`;
}

/** The case's YAML: a list item at column 0 (the caller indents it to the file's list). */
export function caseYaml(name: string, conversation: RecordedConversation): string {
  const lines: string[] = [`- name: ${q(name)}`];
  const from = conversation.conversationId ? ` ${conversation.conversationId}` : '';
  const where = conversation.environment ? ` (${conversation.environment})` : '';
  lines.push(`  # Made from conversation${from}${where}. Each reference is the answer as it came; tighten the checks`);
  lines.push('  # (contains, matches, not_contains) to what must stay the same.');
  if (conversation.leftOut)
    lines.push(
      `  # ${conversation.leftOut} turn(s) without a message or an answer (a silence, a failed send) were left out.`,
    );
  if (conversation.variant) lines.push(`  variant: ${q(conversation.variant)}`);
  if (conversation.integrationAttributes && Object.keys(conversation.integrationAttributes).length > 0)
    lines.push(`  integration_attributes: ${flowMap(conversation.integrationAttributes)}`);
  if (conversation.asrLangCode) lines.push(`  asr_lang_code: ${q(conversation.asrLangCode)}`);
  if (conversation.ttsLangCode) lines.push(`  tts_lang_code: ${q(conversation.ttsLangCode)}`);
  lines.push('  turns:');
  if (conversation.greeting !== undefined) lines.push(`    - reference: ${q(conversation.greeting)}`);
  for (const turn of conversation.turns) {
    lines.push(`    - user: ${q(turn.user)}`);
    if (turn.metadata && Object.keys(turn.metadata).length > 0) lines.push(`      metadata: ${flowMap(turn.metadata)}`);
    if (!turn.handoff) lines.push('      handoff: none');
    else {
      const parts = [
        ...(turn.handoff.destination ? [`destination: ${q(turn.handoff.destination)}`] : []),
        ...(turn.handoff.reason ? [`reason: ${q(turn.handoff.reason)}`] : []),
      ];
      lines.push(`      handoff: ${parts.length > 0 ? `{ ${parts.join(', ')} }` : 'true'}`);
    }
    if (turn.end !== undefined) lines.push(`      end: ${turn.end}`);
    lines.push(`      reference: ${q(turn.answer)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** A new test file holding one case. */
export function newTestFile(agentId: string | undefined, name: string, conversation: RecordedConversation): string {
  const head = agentId ? `agent: ${q(agentId)}\n` : '';
  return `${head}cases:\n${indent(caseYaml(name, conversation), 2)}`;
}

/**
 * A test file's text with one more case at the end of its `cases:` list, everything else as it was; or why it
 * cannot be added there (the file is not a mapping with a block list of cases).
 */
export function appendCase(
  text: string,
  name: string,
  conversation: RecordedConversation,
): { text: string } | { problem: string } {
  const doc = parseDocument(text);
  if (doc.errors.length > 0) return { problem: 'The file is not valid YAML; fix it first, or pick another file.' };
  const root = doc.contents;
  if (!isMap(root)) return { problem: 'The file is not a conversation test file (a mapping with `cases:`).' };
  const cases = root.get('cases', true);
  if (cases === undefined || cases === null) {
    const sep = text.length === 0 || text.endsWith('\n') ? '' : '\n';
    return { text: `${text}${sep}cases:\n${indent(caseYaml(name, conversation), 2)}` };
  }
  if (!isSeq(cases) || cases.flow || !cases.range || cases.items.length === 0)
    return {
      problem: 'The file\'s `cases:` is not a list written one item a line ("- name: ..."); add the case by hand.',
    };
  const names = cases.items.map((c) => (isMap(c) ? c.get('name') : undefined));
  if (names.includes(name)) return { problem: `The file already has a case named "${name}".` };
  const start = cases.range[0];
  const column = start - (text.lastIndexOf('\n', start - 1) + 1);
  // After the list's last item, at the start of the next line.
  const end = cases.range[1];
  const lineEnd = text.indexOf('\n', Math.max(end - 1, 0));
  const at = lineEnd === -1 ? text.length : lineEnd + 1;
  const before = text.slice(0, at);
  const sep = before.endsWith('\n') || before.length === 0 ? '' : '\n';
  return { text: `${before}${sep}${indent(caseYaml(name, conversation), column)}${text.slice(at)}` };
}

function indent(text: string, by: number): string {
  const pad = ' '.repeat(by);
  return text
    .split('\n')
    .map((l) => (l ? pad + l : l))
    .join('\n');
}
