import type { ParsedFile } from '../agentFile';
import type { Finding } from '../problem';
import type { FileRule } from '../rule';

interface SecretPattern {
  /** What it is, with its article: `an API key`. */
  kind: string;
  pattern: RegExp;
  /** The capture group that holds the secret itself (0: the whole match). */
  group: number;
}

/**
 * Shapes of secrets that are never meant to be in a prompt, topic or config. Provider key formats are public
 * (OpenAI, AWS, GitHub, Slack, Google, Stripe); connector tokens and keys in general are found by what names them.
 */
const PATTERNS: SecretPattern[] = [
  {
    kind: 'a private key',
    pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----|$)/g,
    group: 0,
  },
  {
    kind: 'a JWT',
    pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
    group: 0,
  },
  {
    kind: 'an API key',
    pattern:
      /\b(?:sk-(?:proj-)?[A-Za-z0-9_-]{20,}|AKIA[0-9A-Z]{16}|gh[pousr]_[A-Za-z0-9]{36,}|xox[abpr]-[A-Za-z0-9-]{10,}|AIza[0-9A-Za-z_-]{35}|[rs]k_live_[0-9A-Za-z]{20,})/g,
    group: 0,
  },
  {
    kind: 'a connector token',
    pattern: /\b(?:x-token|connector[_ -]?token)["']?\s*[:=]\s*["']?([A-Za-z0-9_\-.+/=]{12,})/gi,
    group: 1,
  },
  {
    kind: 'an API key',
    pattern:
      /\b(?:x-api-key|api[_ -]?key|access[_ -]?token|auth[_ -]?token|client[_ -]?secret|secret[_ -]?key|password)["']?\s*[:=]\s*["']?([A-Za-z0-9_\-.+/=]{16,})/gi,
    group: 1,
  },
];

/** Credential values shorter than this are too likely to be ordinary words to look for (the redactor's rule too). */
const MIN_CREDENTIAL = 6;

/** What a credential of this workspace is called in messages. */
const WORKSPACE_CREDENTIAL = "a credential of this workspace's profiles";

/**
 * The fix removes the value and puts nothing in its place: a prompt or topic is read by the model, and a voice
 * agent would say a placeholder such as "API key removed" to a caller. A space left doubled is taken too.
 */
function removal(text: string, start: number, end: number): { start: number; end: number } {
  const before = text[start - 1];
  const after = text[end];
  return before === ' ' && (after === undefined || /[\s.,;:!?)]/.test(after))
    ? { start: start - 1, end }
    : { start, end };
}

function finding(file: ParsedFile, start: number, end: number, kind: string): Finding {
  const what = `${kind.charAt(0).toUpperCase()}${kind.slice(1)}`;
  const cut = removal(file.text, start, end);
  return {
    path: file.path,
    start,
    end,
    // The value is never repeated: the message may be shown, logged or written to a SARIF file.
    message:
      kind === WORKSPACE_CREDENTIAL
        ? `${what} is written here: remove it (it stays where the profile keeps it, out of the agent's files); everyone who reads the agent, and the model, sees what is written here`
        : `${what} is written here: remove it. A key the agent uses belongs in the platform's secrets of the project, where its functions read it, not in the agent's files nor in a connection profile; everyone who reads the agent, and the model, sees what is written here`,
    fix: {
      title: `Remove ${kind.replace(/^an? /, 'the ')}`,
      edits: [{ path: file.path, ...cut, newText: '' }],
    },
  };
}

/** Secrets pasted into a prompt, topic or config: anyone who can read the branch, and the model, sees them. */
export const secret: FileRule = {
  id: 'secret',
  severity: 'error',
  summary: "an API key, connector token, JWT, private key or one of this workspace's credentials in a file",
  scope: 'file',
  check(file, context) {
    if (file.unreadable || file.kind === 'other' || file.kind === 'manifest') return [];
    const out: Finding[] = [];
    const taken: Array<[number, number]> = [];
    const overlaps = (s: number, e: number): boolean => taken.some(([a, b]) => s < b && e > a);
    const add = (s: number, e: number, kind: string): void => {
      if (overlaps(s, e)) return;
      taken.push([s, e]);
      out.push(finding(file, s, e, kind));
    };
    for (const value of context.credentials) {
      if (value.length < MIN_CREDENTIAL) continue;
      for (let i = file.text.indexOf(value); i !== -1; i = file.text.indexOf(value, i + value.length))
        add(i, i + value.length, WORKSPACE_CREDENTIAL);
    }
    for (const p of PATTERNS) {
      p.pattern.lastIndex = 0;
      for (let m = p.pattern.exec(file.text); m; m = p.pattern.exec(file.text)) {
        const value = m[p.group];
        if (value === undefined) continue;
        const start = m.index + m[0].lastIndexOf(value);
        add(start, start + value.length, p.kind);
      }
    }
    return out;
  },
};
