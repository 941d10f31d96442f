import type { Finding } from '../problem';
import type { FileRule } from '../rule';

interface SecretPattern {
  /** What it is, with its article: `an API key`. */
  kind: string;
  pattern: RegExp;
  /** The capture group that holds the secret itself (0: the whole match). */
  group: number;
  placeholder: string;
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
    placeholder: '<private key removed>',
  },
  {
    kind: 'a JWT',
    pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
    group: 0,
    placeholder: '<token removed>',
  },
  {
    kind: 'an API key',
    pattern:
      /\b(?:sk-(?:proj-)?[A-Za-z0-9_-]{20,}|AKIA[0-9A-Z]{16}|gh[pousr]_[A-Za-z0-9]{36,}|xox[abpr]-[A-Za-z0-9-]{10,}|AIza[0-9A-Za-z_-]{35}|[rs]k_live_[0-9A-Za-z]{20,})/g,
    group: 0,
    placeholder: '<API key removed>',
  },
  {
    kind: 'a connector token',
    pattern: /\b(?:x-token|connector[_ -]?token)["']?\s*[:=]\s*["']?([A-Za-z0-9_\-.+/=]{12,})/gi,
    group: 1,
    placeholder: '<connector token removed>',
  },
  {
    kind: 'an API key',
    pattern:
      /\b(?:x-api-key|api[_ -]?key|access[_ -]?token|auth[_ -]?token|client[_ -]?secret|secret[_ -]?key|password)["']?\s*[:=]\s*["']?([A-Za-z0-9_\-.+/=]{16,})/gi,
    group: 1,
    placeholder: '<API key removed>',
  },
];

/** Credential values shorter than this are too likely to be ordinary words to look for (the redactor's rule too). */
const MIN_CREDENTIAL = 6;

function finding(path: string, start: number, end: number, kind: string, placeholder: string): Finding {
  return {
    path,
    start,
    end,
    // The value is never repeated: the message may be shown, logged or written to a SARIF file.
    message: `${kind[0]!.toUpperCase()}${kind.slice(1)} is written here: remove it and keep it in the profile's credentials (it reaches everyone who reads the agent)`,
    fix: {
      title: `Replace ${kind.replace(/^an? /, 'the ')} by a placeholder`,
      edits: [{ path, start, end, newText: placeholder }],
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
    const add = (s: number, e: number, kind: string, placeholder: string): void => {
      if (overlaps(s, e)) return;
      taken.push([s, e]);
      out.push(finding(file.path, s, e, kind, placeholder));
    };
    for (const value of context.credentials) {
      if (value.length < MIN_CREDENTIAL) continue;
      for (let i = file.text.indexOf(value); i !== -1; i = file.text.indexOf(value, i + value.length))
        add(i, i + value.length, "a credential of this workspace's profiles", '<credential removed>');
    }
    for (const p of PATTERNS) {
      p.pattern.lastIndex = 0;
      for (let m = p.pattern.exec(file.text); m; m = p.pattern.exec(file.text)) {
        const value = m[p.group]!;
        const start = m.index + m[0].lastIndexOf(value);
        add(start, start + value.length, p.kind, p.placeholder);
      }
    }
    return out;
  },
};
