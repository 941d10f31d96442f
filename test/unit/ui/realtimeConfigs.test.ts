import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { checkJsonSchema } from '../../../src/core/jsonSchema';
import { plainL10n } from '../../../src/ui/common/l10n';
import { realtimeConfigsIn, realtimePushWarning } from '../../../src/ui/files/realtimeWarning';

interface JsonValidation {
  fileMatch: string[];
  url: string;
}
const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as {
  contributes: { jsonValidation: JsonValidation[] };
};
const entry = manifest.contributes.jsonValidation.find((j) => j.fileMatch.includes('**/realtime/*.json'));
const schema: unknown = entry ? JSON.parse(readFileSync(entry.url, 'utf8')) : undefined;

test('the editor validates realtime/<config>.json with the schema shipped in the extension', () => {
  assert.ok(entry, 'no jsonValidation for realtime/*.json');
  assert.match(entry.url, /^\.\/media\//, 'the schema ships in media/, which the package keeps');
  assert.equal((schema as { type: string }).type, 'object');
});

test('a file of variables is valid: any runtime value, nested objects and lists included', () => {
  for (const ok of [
    {},
    { holidayMode: false, maxWaitMinutes: 15, greetingOverride: '' },
    { hours: { open: '09:00', close: '17:00' }, closedOn: ['2026-12-25'], ratio: 0.5 },
  ])
    assert.deepEqual(checkJsonSchema(schema, ok), [], JSON.stringify(ok));
});

test('what the platform cannot take as variables is flagged where it is', () => {
  assert.match(checkJsonSchema(schema, [1, 2])[0]!.message, /type object/);
  assert.match(checkJsonSchema(schema, 'holidayMode')[0]!.message, /type object/);
  // null removes a variable on the platform: in the file it would silently vanish on the next pull.
  const violations = checkJsonSchema(schema, { holidayMode: null, maxWaitMinutes: 15 });
  assert.deepEqual(
    violations.map((v) => v.path),
    ['holidayMode'],
  );
});

test('only real-time config files call for the warning, each config named once', () => {
  assert.deepEqual(realtimeConfigsIn(['behavior.md', 'knowledge/faq.md']), []);
  assert.deepEqual(
    realtimeConfigsIn(['realtime/store-settings.json', 'realtime\\store-settings.json', 'realtime/a/b.json']),
    ['store-settings'],
  );
  assert.equal(realtimePushWarning(plainL10n, 'Support Desk', ['behavior.md']), undefined);
});

test('the warning says the values apply at once, everywhere, without publishing', () => {
  const one = realtimePushWarning(plainL10n, 'Support Desk', ['realtime/store-settings.json'])!;
  assert.equal(
    one.question,
    'Pushing this file changes the real-time config "store-settings" of Support Desk at once.',
  );
  assert.match(one.detail, /immediately, without publishing, in every environment including live/);
  assert.equal(one.go, 'Push and Apply Now');
  const two = realtimePushWarning(plainL10n, 'Support Desk', ['behavior.md', 'realtime/a.json', 'realtime/b.json'])!;
  assert.equal(two.question, 'Pushing changes 2 real-time configs of Support Desk at once: a, b.');
});
