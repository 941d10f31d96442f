import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  mirrorDocumentUri,
  type MirrorRef,
  parseMirrorDocumentUri,
  parseRemoteDocumentUri,
  remoteDocumentUri,
  type RemoteRef,
  Scheme,
} from '../../../src/ui/uris';

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

test('a side of a checked-out file reads back as what it was built from, and its tab shows the folder and file', () => {
  const refs: MirrorRef[] = [
    { side: 'base', folder: '/work/agents/support-desk', path: 'behavior.md' },
    { side: 'remote', folder: '/work/agents/support-desk', path: 'knowledge/opening-hours.md' },
    { side: 'local', folder: 'C:\\agents\\desk', path: 'realtime/store-settings.json' },
  ];
  for (const ref of refs) assert.deepEqual(parseMirrorDocumentUri(mirrorDocumentUri(ref)), ref);
  assert.equal(mirrorDocumentUri(refs[1]!).path, '/support-desk/knowledge/opening-hours.md');
  assert.equal(mirrorDocumentUri(refs[0]!).scheme, Scheme.mirror);
});

test('a mirror address names only files the mirror owns, in an absolute folder, and only the three sides', () => {
  const make = (q: Record<string, string>) => ({ scheme: Scheme.mirror, query: new URLSearchParams(q).toString() });
  const ok = { side: 'base', folder: '/work/desk', path: 'behavior.md' };
  assert.ok(parseMirrorDocumentUri(make(ok)));
  for (const bad of [
    { ...ok, side: 'theirs' },
    { ...ok, folder: 'relative/desk' },
    { ...ok, path: '../secrets.md' },
    { ...ok, path: 'knowledge/../../etc.md' },
    { ...ok, path: '.workbench/base.json' },
    { ...ok, path: 'agent.json' },
    { side: 'base', folder: '/work/desk' },
  ])
    assert.equal(parseMirrorDocumentUri(make(bad)), undefined, JSON.stringify(bad));
  assert.equal(parseMirrorDocumentUri({ scheme: Scheme.remote, query: new URLSearchParams(ok).toString() }), undefined);
});
