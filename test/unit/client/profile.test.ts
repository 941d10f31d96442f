import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkBaseUrl, checkBuildUrlRegion, checkPathId, parseStudioUrl, secretKey } from '../../../src/client/profile';

describe('connection profile input', () => {
  const studio: Array<[string, { accountId: string; projectId: string } | undefined]> = [
    ['https://studio.example.com/acme/support-desk/agents/ag_1', { accountId: 'acme', projectId: 'support-desk' }],
    [
      'https://studio.example.com/ACCOUNT-a1b2c3d/PROJECT-5a7e1c0d',
      { accountId: 'ACCOUNT-a1b2c3d', projectId: 'PROJECT-5a7e1c0d' },
    ],
    [
      'https://studio.example.com/en/ACCOUNT-a1b2c3d/PROJECT-5a7e1c0d/flows',
      { accountId: 'ACCOUNT-a1b2c3d', projectId: 'PROJECT-5a7e1c0d' },
    ],
    ['  https://studio.example.com/acme/support-desk  ', { accountId: 'acme', projectId: 'support-desk' }],
    ['https://studio.example.com/acme', undefined],
    ['not a url', undefined],
    ['ftp://studio.example.com/acme/desk', undefined],
  ];
  for (const [input, expected] of studio) {
    it(`[ADDR-1] reads account and project from the studio address ${JSON.stringify(input)}`, () => {
      assert.deepEqual(parseStudioUrl(input), expected);
    });
  }

  it('[ADDR-1] accepts slug and prefixed ids and says what is wrong otherwise', () => {
    assert.equal(checkPathId('account', 'acme'), undefined);
    assert.equal(checkPathId('account', 'ACCOUNT-a1b2c3d'), undefined);
    assert.equal(checkPathId('project', 'PROJECT-5a7e1c0d'), undefined);
    assert.match(checkPathId('project', '')!, /Enter the project id/);
    assert.match(checkPathId('account', 'acme corp')!, /slug/);
  });

  it('[ADDR-2] requires https (http only on loopback) and a region in the build address', () => {
    assert.equal(checkBaseUrl('https://api.us.poly.ai', 'build address'), undefined);
    assert.equal(checkBaseUrl('http://127.0.0.1:4780/build', 'build address'), undefined);
    assert.match(checkBaseUrl('http://api.us.poly.ai', 'build address')!, /https/);
    assert.match(checkBaseUrl('api.us.poly.ai', 'build address')!, /full address/);
    assert.match(checkBuildUrlRegion('https://api.poly.ai')!, /region/);
    assert.equal(checkBuildUrlRegion('https://api.eu.poly.ai'), undefined);
    // The rule as the prompt says it: a poly.ai build address names its region; other hosts cannot be judged.
    assert.match(checkBuildUrlRegion('https://build.poly.ai')!, /build\.poly\.ai names no region/);
    assert.match(checkBuildUrlRegion('https://api.euw-1.poly.ai')!, /names no region/);
    assert.equal(checkBuildUrlRegion('http://127.0.0.1:4000/build'), undefined);
  });

  it('stores each credential under a profile-scoped secret name', () => {
    assert.equal(secretKey('prod-1', 'agentsApiKey'), 'agentWorkbench.profile.prod-1.agentsApiKey');
    assert.notEqual(secretKey('a', 'dniApiKey'), secretKey('b', 'dniApiKey'));
  });
});
