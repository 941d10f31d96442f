// The secrets scan finds what it looks for: each listed secret as UTF-8 and UTF-16 bytes, a webhook signing secret
// and a messaging access token of the local platform by their shape, and npm test's last part fails on one found,
// naming the secret and the file, never printing the secret.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { newSigningSecret } from '../../src/localPlatform/alerts/model';
import { issueAccessToken } from '../../src/localPlatform/messaging/tokens';
import { LOCAL_KEYS } from '../../src/localPlatform/seed/credentials';
import { NAMED_SECRETS, SECRETS, secretsInBytes, TEST_KEYS } from '../support/secretsScan';

const scan = (root: string, ...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'test/host/scanSecrets.ts', '--root', root, ...args], {
    encoding: 'utf8',
  });

describe('the secrets scan', () => {
  it('lists every seeded key and token of the local platform and every key the suites type, each once', () => {
    for (const key of Object.values(LOCAL_KEYS)) assert.ok(SECRETS.includes(key), key);
    for (const key of Object.values(TEST_KEYS)) assert.ok(SECRETS.includes(key), key);
    assert.ok(!SECRETS.includes('example.com'), 'a host name is no secret');
    assert.equal(new Set(NAMED_SECRETS.values()).size, NAMED_SECRETS.size);
  });

  it('finds a secret as UTF-8 and as UTF-16 bytes, and the made secrets by their shape', () => {
    const around = (s: Buffer) => Buffer.concat([Buffer.from('\u0000\u0001before '), s, Buffer.from(' after\u00ff')]);
    assert.deepEqual(
      secretsInBytes(around(Buffer.from(LOCAL_KEYS.chat))).map((f) => [f.secret, f.encoding]),
      [['local key chat', 'utf8']],
    );
    assert.deepEqual(
      secretsInBytes(around(Buffer.from(TEST_KEYS.modelEndpoint, 'utf16le'))).map((f) => [f.secret, f.encoding]),
      [['test key modelEndpoint', 'utf16']],
    );
    assert.deepEqual(
      secretsInBytes(Buffer.from(`{"secret":"${newSigningSecret()}"}`)).map((f) => f.secret),
      ['a webhook signing secret'],
    );
    const { token } = issueAccessToken('s3cret', 'conn_1', 'example.com', 1_700_000_000, 3600);
    assert.deepEqual(
      secretsInBytes(Buffer.from(`GET /ws?access_token=${token}&session_id=x`)).map((f) => f.secret),
      ['a messaging access token'],
    );
    // A token of the same header from another issuer, a redacted secret and a short fixture are not ours.
    const other = token.replace(
      /\.[^.]+\./,
      `.${Buffer.from('{"iss":"someone-else","sub":"x1234567890"}').toString('base64url')}.`,
    );
    assert.deepEqual(secretsInBytes(Buffer.from(`${other} whsec_*** lp_chat_k…`)), []);
  });

  it('fails on a secret found, naming it and the file but never printing it; passes, place by place, on none', () => {
    const root = mkdtempSync(join(tmpdir(), 'aw-scan-'));
    try {
      mkdirSync(join(root, 'integration', 'sandbox', 'user-data', 'logs', 'x', 'agent-workbench.agent-workbench'), {
        recursive: true,
      });
      const log = join(
        root,
        'integration',
        'sandbox',
        'user-data',
        'logs',
        'x',
        'agent-workbench.agent-workbench',
        'Agent Workbench.log',
      );
      writeFileSync(log, 'GET /v1/agents → 200\n');
      const clean = scan(root);
      assert.equal(clean.status, 0, clean.stdout);
      assert.match(clean.stdout, /the extension's output channel\s+1\s+[\d.]+ kB\s+0/);
      assert.match(clean.stdout, /found: 0$/m);
      writeFileSync(log, `x-api-key: ${LOCAL_KEYS.agents}\n`);
      const leaked = scan(root);
      assert.equal(leaked.status, 1);
      assert.match(
        leaked.stdout,
        /✖ local key agents \(utf8\) in integration\/sandbox\/user-data\/logs\/.*Agent Workbench\.log/,
      );
      assert.ok(!leaked.stdout.includes(LOCAL_KEYS.agents), 'the secret itself is not printed');
      const incomplete = scan(root, '--whole-run');
      assert.match(incomplete.stdout, /✖ nothing was searched in cassettes/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
