import { isMap, isSeq, parseDocument } from 'yaml';

/**
 * A conversation as it happened (in the chat playground, or as the platform recorded it), made into a new case of a
 * test file: its user turns, its handoff and end as they happened, and each answer as the `reference` a failing
 * turn's diff shows. Each answer is also checked for a few of its own key phrases (`contains:`), so the case holds on
 * the agent it was recorded with and not on any other: the person loosens them to what must stay the same.
 */
export interface RecordedTurn {
  readonly user: string;
  readonly answer: string;
  readonly metadata?: Readonly<Record<string, unknown>>;
  /** The handoff of this turn; undefined when there was none. */
  readonly handoff?: { readonly destination?: string; readonly reason?: string };
  /** Whether this turn handed off is not known (the record says a handoff happened, not at which turn): not checked. */
  readonly handoffUnchecked?: boolean;
  /** Whether the agent ended the conversation with this answer; undefined where that is not known. */
  readonly end?: boolean;
  /** Judged criteria drafted for this answer (by the chosen model), for the person to edit. */
  readonly expect?: readonly string[];
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
  /** Judged criteria drafted for the greeting. */
  readonly greetingExpect?: readonly string[];
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

function flowList(texts: readonly string[]): string {
  return `[${texts.map(q).join(', ')}]`;
}

/** At most this many phrases of an answer are checked: enough to tell agents apart, few enough to keep. */
const MAX_PHRASES = 3;
/** Words of an answer: letters and digits, with the marks inside them that keep a time, a price or a name whole. */
const WORD = /[\p{L}\p{N}$€£]+(?:[':/.,’-][\p{L}\p{N}]+)*%?/gu;
/** Words that say nothing of what an answer is about, however long. */
const COMMON = new Set(
  (
    'about above across after again against almost already always another anything around away because before ' +
    'behind being below between cannot could course doing during either enough every everything further having ' +
    'getting hello however itself little maybe might myself nothing other please pretty rather really should something ' +
    'sorry still their there these thing things think those though through today together under until would ' +
    'without yourself thank thanks welcome happy help'
  ).split(' '),
);
/** Capitalised, but not a name: the speaker, and words that start a line of speech anyway. */
const NOT_NAMES = /^(?:I|I'm|I’m|I'll|I’ll|I've|I’ve|I'd|I’d|OK|Okay)$/;

/**
 * A few phrases of an answer that a rewording of it would most likely keep and another agent's answer would most
 * likely lack: numbers (times, prices, counts), then names (capitalised words inside a sentence), then its longest
 * uncommon words; in the order they come in the answer. The same answer always gives the same phrases.
 */
export function keyPhrases(answer: string): string[] {
  const words = [...answer.matchAll(WORD)].map((m) => {
    const word = m[0].replace(/[.,]+$/, '');
    const before = answer.slice(0, m.index).trimEnd();
    const startsSentence = before === '' || /[.!?:\n]$/.test(before);
    // A lone digit is in too many answers to tell them apart.
    const rank =
      /\p{N}/u.test(word) && word.length > 1
        ? 0
        : /^\p{Lu}/u.test(word) && !startsSentence && !NOT_NAMES.test(word)
          ? 1
          : word.length >= 6 && !COMMON.has(word.toLowerCase())
            ? 2
            : 3;
    return { word, at: m.index, rank };
  });
  const seen = new Set<string>();
  const unique = words.filter((w) => {
    const key = w.word.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const byRank = (a: (typeof unique)[number], b: (typeof unique)[number]) =>
    a.rank - b.rank || (a.rank === 2 ? b.word.length - a.word.length : 0) || a.at - b.at;
  let picked = unique
    .filter((w) => w.rank < 3)
    .sort(byRank)
    .slice(0, MAX_PHRASES);
  // An answer of short common words only: its longest word, or the whole of a short answer without words.
  if (picked.length === 0) {
    const longest = unique
      .filter((w) => w.word.length >= 3)
      .sort((a, b) => b.word.length - a.word.length || a.at - b.at);
    picked = longest.slice(0, 1);
    const trimmed = answer.trim();
    if (picked.length === 0 && trimmed !== '' && trimmed.length <= 80) return [trimmed];
  }
  return picked.sort((a, b) => a.at - b.at).map((w) => w.word);
}

/** The case's YAML: a list item at column 0 (the caller indents it to the file's list). */
export function caseYaml(name: string, conversation: RecordedConversation): string {
  const lines: string[] = [`- name: ${q(name)}`];
  const from = conversation.conversationId ? ` ${conversation.conversationId}` : '';
  const where = conversation.environment ? ` (${conversation.environment})` : '';
  lines.push(`  # Made from conversation${from}${where}. Each reference is the answer as it came, shown in a failing`);
  lines.push(
    "  # turn's diff but not checked. The contains: phrases were picked from each answer (numbers, names, long",
  );
  lines.push('  # words): loosen or remove those that may change, and tighten what must stay the same.');
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
  if (conversation.greeting !== undefined) {
    const phrases = keyPhrases(conversation.greeting);
    lines.push(
      phrases.length > 0
        ? `    - contains: ${flowList(phrases)}\n      reference: ${q(conversation.greeting)}`
        : `    - reference: ${q(conversation.greeting)}`,
    );
    lines.push(...expectLines(conversation.greetingExpect));
  }
  for (const turn of conversation.turns) {
    lines.push(`    - user: ${q(turn.user)}`);
    if (turn.metadata && Object.keys(turn.metadata).length > 0) lines.push(`      metadata: ${flowMap(turn.metadata)}`);
    const phrases = keyPhrases(turn.answer);
    if (phrases.length > 0) lines.push(`      contains: ${flowList(phrases)}`);
    // A turn whose handoff is not known checks it neither way: the handoff may have come at this turn.
    if (!turn.handoff) {
      if (!turn.handoffUnchecked) lines.push('      handoff: none');
    } else {
      const parts = [
        ...(turn.handoff.destination ? [`destination: ${q(turn.handoff.destination)}`] : []),
        ...(turn.handoff.reason ? [`reason: ${q(turn.handoff.reason)}`] : []),
      ];
      lines.push(`      handoff: ${parts.length > 0 ? `{ ${parts.join(', ')} }` : 'true'}`);
    }
    if (turn.end !== undefined) lines.push(`      end: ${turn.end}`);
    lines.push(...expectLines(turn.expect));
    lines.push(`      reference: ${q(turn.answer)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** A turn's drafted `expect:`, marked as a draft to edit: judged by the chosen model when the case runs. */
function expectLines(expect: readonly string[] | undefined): string[] {
  if (!expect || expect.length === 0) return [];
  return [
    '      # Drafted by a model from the answer: edit to what the answer must mean.',
    '      expect:',
    ...expect.map((e) => `        - ${q(e)}`),
  ];
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
