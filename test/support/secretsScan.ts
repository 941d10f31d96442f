// The secrets scan: every secret the test runs hand to the product, and where one of them is found. The one list the
// suites and the runners share: the local platform's seeded keys and connector tokens, the keys the suites type or
// paste, the scripted model's key, and the shapes of the secrets made while the runs go (webhook signing secrets,
// messaging access tokens). npm test's last part (test/host/scanSecrets.ts) searches every output of the editor
// runs for them; the assistant tools' tests scan every answer.
import { readFileSync } from 'node:fs';
import { DEMO_PROJECTS, LOCAL_CONNECTORS, LOCAL_KEYS } from '../../src/localPlatform/seed/credentials';

/** Keys the suites type, set or paste that the local platform does not seed. */
export const TEST_KEYS = {
  /** The key of the scripted model endpoint the judged tests set through the editor (kept in SecretStorage only). */
  modelEndpoint: 'sk-judged-integration-key-1',
  /** A wrong Conversations key of a profile (connection suite). */
  wrongConversations: 'integration-wrong-key-1',
  /** A wrong Agents key of a profile, which Test Connection must not repeat (first use). */
  wrongAgents: 'wrong-agents-key-1',
  /** A key typed into the password field of a new profile (connection, end to end). */
  stagingAgents: 'staging-agents-key-123',
  /** Keys written into an agent's prompt on purpose, for the check that flags a credential in a prompt file. */
  inPrompt: 'sk-proj-abcdefghijklmnopqrstuvwxyz0123',
  typedInPrompt: 'sk-proj-abcdefghijklmnopqrstuvwx12',
  /** A credential pasted into a prompt, named to `lint --credential-env` (the command line's package). */
  forLint: 'sk_live_0123456789abcdef',
} as const;

/** The key of the scripted model endpoint (see TEST_KEYS). */
export const MODEL_ENDPOINT_KEY = TEST_KEYS.modelEndpoint;

/** Each secret the suites hand to the extension and the command line, by a name that says what it is. */
export const NAMED_SECRETS: ReadonlyMap<string, string> = new Map([
  ...Object.entries(LOCAL_KEYS).map(([k, v]) => [`local key ${k}`, v] as const),
  ...Object.entries(LOCAL_CONNECTORS)
    .filter(([name]) => name !== 'webchatHost')
    .map(([k, v]) => [`local connector ${k}`, v] as const),
  ...Object.values(DEMO_PROJECTS).flatMap((p) => [
    ...Object.entries(p.keys).map(([k, v]) => [`${p.projectId} key ${k}`, v] as const),
    ...Object.entries(p.connectors)
      .filter(([name]) => name !== 'webchatHost')
      .map(([k, v]) => [`${p.projectId} connector ${k}`, v] as const),
  ]),
  ...Object.entries(TEST_KEYS).map(([k, v]) => [`test key ${k}`, v] as const),
]);

/** Every secret the test suites hand to the extension and the command line. */
export const SECRETS: readonly string[] = [...new Set(NAMED_SECRETS.values())];

/**
 * Secrets made while the runs go, found by their shape: a webhook endpoint's signing secret (the local platform's
 * `whsec_` and 24 random bytes), and a messaging access token the local platform issued (a JWT whose issuer is the
 * local platform).
 */
export const SECRET_SHAPES: ReadonlyArray<{ name: string; pattern: RegExp; is?: (match: string) => boolean }> = [
  { name: 'a webhook signing secret', pattern: /whsec_[A-Za-z0-9+/]{32}/g },
  {
    name: 'a messaging access token',
    pattern: /eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9\.[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{20,}/g,
    is: (token) => {
      try {
        const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { iss?: unknown };
        return claims.iss === 'agent-workbench-local-platform';
      } catch {
        return false;
      }
    },
  },
];

/** The secrets found in a text, each named by its first characters only, with where it was (`place`). */
export function secretsIn(text: string, place: string, secrets: readonly string[] = SECRETS): string[] {
  return secrets.filter((s) => text.includes(s)).map((s) => `${s.slice(0, 6)}… in ${place}`);
}

/** The secrets found in files. */
export function leaks(files: readonly string[]): string[] {
  return files.flatMap((file) => secretsIn(readFileSync(file, 'latin1'), file));
}

/** One secret found in some bytes: what it is (never the secret itself), and at which offset. */
export interface Finding {
  secret: string;
  at: number;
  /** How it was written: UTF-8 (or Latin-1), or UTF-16 (as some editors' and browsers' stores keep text). */
  encoding: 'utf8' | 'utf16';
}

const UTF16 = new Map(SECRETS.map((s) => [s, Buffer.from(s, 'utf16le').toString('latin1')]));

/** Every secret of the list, and of the shapes, in some bytes, searched as bytes. */
export function secretsInBytes(bytes: Buffer): Finding[] {
  const text = bytes.toString('latin1');
  const found: Finding[] = [];
  for (const [name, secret] of NAMED_SECRETS) {
    const at = text.indexOf(secret);
    if (at >= 0) found.push({ secret: name, at, encoding: 'utf8' });
    const wide = text.indexOf(UTF16.get(secret)!);
    if (wide >= 0) found.push({ secret: name, at: wide, encoding: 'utf16' });
  }
  for (const shape of SECRET_SHAPES)
    for (const m of text.matchAll(shape.pattern))
      if (!shape.is || shape.is(m[0])) found.push({ secret: shape.name, at: m.index, encoding: 'utf8' });
  return found;
}
