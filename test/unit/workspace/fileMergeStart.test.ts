import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hasConflictMarkers, MARKER, withConflictMarkers } from '../../../src/workspace/conflictMarkers';
import { assumed, useLocalPlatform } from '../../support/localPlatform';
import { checkedOut, MAIN, remoteEdit } from './mirrorSupport';

describe('conflict markers of a file merge', () => {
  it('writes each region both sides changed between markers, yours first, and nothing when no region conflicts', () => {
    const base = 'one\ntwo\nthree\n';
    const marked = withConflictMarkers('one\nTWO mine\nthree\n', base, 'one\nTWO theirs\nthree\n');
    assert.equal(marked, `one\n${MARKER.yours}\nTWO mine\n${MARKER.divider}\nTWO theirs\n${MARKER.platform}\nthree\n`);
    assert.ok(hasConflictMarkers(marked!));
    assert.equal(withConflictMarkers('ONE\ntwo\nthree\n', base, 'one\ntwo\nTHREE\n'), undefined);
    assert.equal(hasConflictMarkers('a line with <<<<<<< inside'), false);
  });
});

const READS_PLATFORM_COPY = assumed(
  'GET /v1/agents/{agentId}/branches/{branchId}/behavior, GET .../knowledge-base/topics and GET /v1/agents/{agentId}/branches',
);

describe('file mirror: a file merge begun from a pull or a status read', { skip: READS_PLATFORM_COPY }, () => {
  const t = useLocalPlatform();

  it('a conflict a status read found is recorded with the platform side as it is now, and settles as a pulled one', async () => {
    const { fs, mirror } = await checkedOut(t.lp);
    const base = fs.files.get('behavior.md')!;
    fs.files.set('behavior.md', base.replace('Be brief and friendly.', 'Be brief and precise.'));
    const mine = fs.files.get('behavior.md')!;
    await remoteEdit(t.lp, MAIN.branchId, {
      behavior: base.replace('Be brief and friendly.', 'Be cheerful.').slice(0, -1),
    });
    assert.ok((await mirror.status({ remote: true })).some((f) => f.path === 'behavior.md' && f.state === 'conflict'));
    assert.equal(await mirror.conflictAt('behavior.md'), undefined, 'a status read records nothing');

    const recorded = await mirror.recordConflict('behavior.md');
    assert.equal(recorded?.key, 'behavior');
    assert.match(recorded?.remote ?? '', /Be cheerful\./, 'the platform side, never "deleted"');
    assert.equal(recorded?.local, mine);
    assert.equal(fs.files.get('behavior.md'), mine, 'the file is not touched');
    assert.deepEqual(await mirror.conflictAt('behavior.md'), recorded);

    await mirror.resolve('behavior.md', mine);
    assert.equal(await mirror.conflictAt('behavior.md'), undefined);
    assert.deepEqual(
      (await mirror.push()).sent.map((a) => a.path),
      ['behavior.md'],
    );
  });

  it('a status conflict that combines after all is not recorded', async () => {
    const { fs, mirror } = await checkedOut(t.lp);
    const base = fs.files.get('behavior.md')!;
    fs.files.set('behavior.md', `${base}One more line here.\n`);
    assert.equal(await mirror.recordConflict('behavior.md'), undefined);
  });

  it('beginning the merge keeps the file as Yours and gives the marked text; a pull keeps that snapshot while the merge is under way', async () => {
    const { fs, mirror } = await checkedOut(t.lp);
    const base = fs.files.get('behavior.md')!;
    fs.files.set('behavior.md', base.replace('Be brief and friendly.', 'Be brief and precise.'));
    const mine = fs.files.get('behavior.md')!;
    await remoteEdit(t.lp, MAIN.branchId, {
      behavior: base.replace('Be brief and friendly.', 'Be cheerful.').slice(0, -1),
    });
    assert.equal((await mirror.pull()).conflicts.length, 1);
    assert.equal((await mirror.conflictAt('behavior.md'))?.local, mine, 'the pull keeps a snapshot of yours');

    const started = await mirror.startMerge('behavior.md');
    assert.equal(started?.local, mine);
    assert.ok(
      /<{7} Yours\n.*Be brief and precise\.\n={7}\n.*Be cheerful\.\n>{7} Platform\n/.test(started?.marked ?? ''),
      started?.marked,
    );
    fs.files.set('behavior.md', started!.marked!);

    // Pulled again mid-merge: Yours stays the file as it was, not the markers.
    await mirror.pull();
    assert.equal((await mirror.conflictAt('behavior.md'))?.local, mine);
    const again = await mirror.startMerge('behavior.md');
    assert.equal(again?.marked, undefined, 'a merge under way is left as it is');
    assert.equal(again?.local, mine);
  });
});
