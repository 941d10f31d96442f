import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseRemoteDocumentUri, remoteDocumentUri, type RemoteRef, Scheme } from '../../../src/ui/uris';

const refs: RemoteRef[] = [
  {
    profile: 'acme-prod',
    kind: 'behavior',
    agentId: 'ag_1',
    agentName: 'Support Desk',
    branchId: 'br_1',
    branchName: 'feature/tone',
  },
  {
    profile: 'acme-prod',
    kind: 'topic',
    agentId: 'ag_1',
    agentName: 'Support Desk',
    branchId: 'br_1',
    branchName: 'main',
    topicId: 'tp_9',
    topicName: 'Returns & refunds?',
  },
  { profile: 'local', kind: 'realtimeConfig', agentId: 'ag_1', agentName: 'Support Desk', config: 'hours#weekend' },
];

test('a remote document address reads back as what it was built from', () => {
  for (const ref of refs) assert.deepEqual(parseRemoteDocumentUri(remoteDocumentUri(ref)), ref);
});

test('the path is what a tab shows: the profile, and a file name naming agent and branch, with characters that would change its shape replaced', () => {
  assert.equal(
    remoteDocumentUri(refs[0]!).path,
    '/acme-prod/Support Desk/feature-tone/behavior — Support Desk (feature-tone).md',
  );
  assert.equal(
    remoteDocumentUri(refs[1]!).path,
    '/acme-prod/Support Desk/main/knowledge/Returns & refunds- — Support Desk (main).md',
  );
  assert.equal(remoteDocumentUri(refs[2]!).path, '/local/Support Desk/realtime/hours-weekend — Support Desk.json');
});

test('an address without the profile it was read through is refused', () => {
  const noProfile = new URLSearchParams(remoteDocumentUri(refs[0]!).query);
  noProfile.delete('profile');
  assert.equal(parseRemoteDocumentUri({ scheme: Scheme.remote, query: noProfile.toString() }), undefined);
});

test('an address this extension did not make is refused, not half-read', () => {
  const good = remoteDocumentUri(refs[1]!);
  assert.equal(parseRemoteDocumentUri({ scheme: 'file', query: good.query }), undefined);
  assert.equal(parseRemoteDocumentUri({ scheme: Scheme.remote, query: '' }), undefined);
  assert.equal(parseRemoteDocumentUri({ scheme: Scheme.remote, query: 'kind=script&agentId=a' }), undefined);
  const missing = new URLSearchParams(good.query);
  missing.delete('topicId');
  assert.equal(parseRemoteDocumentUri({ scheme: Scheme.remote, query: missing.toString() }), undefined);
  const empty = new URLSearchParams(good.query);
  empty.set('branchId', '');
  assert.equal(parseRemoteDocumentUri({ scheme: Scheme.remote, query: empty.toString() }), undefined);
});

test('fields of another kind are not carried over', () => {
  const query = new URLSearchParams({
    profile: 'local',
    kind: 'realtimeConfig',
    agentId: 'a',
    agentName: 'A',
    config: 'c',
    branchId: 'extra',
  }).toString();
  assert.deepEqual(parseRemoteDocumentUri({ scheme: Scheme.remote, query }), {
    profile: 'local',
    kind: 'realtimeConfig',
    agentId: 'a',
    agentName: 'A',
    config: 'c',
  });
});
