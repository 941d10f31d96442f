/** Reading a model's JSON answer tolerantly: inside code fences, or with words before and after the object. */
import type { z } from 'zod';

/** The answer's JSON object checked against `schema`, or why it cannot be used. */
export function readAnswer<T>(text: string, schema: z.ZodType<T>): { ok: true; value: T } | { ok: false; why: string } {
  const json = readJsonObject(text);
  if (!json.ok) return { ok: false, why: `${json.why}: "${excerpt(text)}"` };
  const parsed = schema.safeParse(json.value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, why: `${issue?.path.join('.') || 'the answer'}: ${issue?.message ?? 'not the asked shape'}` };
  }
  return { ok: true, value: parsed.data };
}

/** The JSON object in a model's answer, or a short reason why there is none. */
export function readJsonObject(text: string): { ok: true; value: unknown } | { ok: false; why: string } {
  const fenced = /```(?:json|JSON)?\s*\n?([\s\S]*?)```/.exec(text);
  const body = (fenced?.[1] ?? text).trim();
  for (const candidate of [body, objectIn(body)]) {
    if (candidate === undefined) continue;
    try {
      return { ok: true, value: JSON.parse(candidate) };
    } catch {
      // try the next
    }
  }
  return { ok: false, why: text.trim() === '' ? 'the answer was empty' : 'the answer holds no JSON object' };
}

function objectIn(text: string): string | undefined {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  return start >= 0 && end > start ? text.slice(start, end + 1) : undefined;
}

/** The conversation as numbered lines, as the judge and the caller read it. */
export function conversationText(
  lines: readonly {
    turn: number;
    role: 'agent' | 'user';
    text: string;
    handoff?: { destination?: string };
    ended?: boolean;
  }[],
): string {
  return lines
    .map((l) => {
      const notes = [
        l.handoff ? `handed off${l.handoff.destination ? ` to ${l.handoff.destination}` : ''}` : '',
        l.ended ? 'ended the conversation' : '',
      ].filter(Boolean);
      return `Turn ${l.turn} (${l.role === 'agent' ? 'agent' : 'caller'}): ${l.text}${notes.length ? ` [${notes.join('; ')}]` : ''}`;
    })
    .join('\n');
}

/** A short quote of a model's answer for an error message. */
export function excerpt(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
