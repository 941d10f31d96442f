// The secrets scan: every secret the test runs hand to the product (the local platform's keys and connector
// tokens), and where one of them is found. The last integration suite scans logs, settings and files with it; the
// assistant tools' tests scan every answer.
import { readFileSync } from 'node:fs';
import { LOCAL_CONNECTORS, LOCAL_KEYS } from '../../src/localPlatform/seed/credentials';

/** The key of the scripted model endpoint the judged tests set through the editor (kept in SecretStorage only). */
export const MODEL_ENDPOINT_KEY = 'sk-judged-integration-key-1';

/** Every secret the test suites hand to the extension and the command line. */
export const SECRETS: readonly string[] = [
  ...Object.values(LOCAL_KEYS),
  ...Object.entries(LOCAL_CONNECTORS)
    .filter(([name]) => name !== 'webchatHost')
    .map(([, v]) => v),
  'integration-wrong-key-1',
  MODEL_ENDPOINT_KEY,
];

/** The secrets found in a text, each named by its first characters only, with where it was (`place`). */
export function secretsIn(text: string, place: string, secrets: readonly string[] = SECRETS): string[] {
  return secrets.filter((s) => text.includes(s)).map((s) => `${s.slice(0, 6)}… in ${place}`);
}

/** The secrets found in files. */
export function leaks(files: readonly string[]): string[] {
  return files.flatMap((file) => secretsIn(readFileSync(file, 'latin1'), file));
}
