import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyChanges, type Change, ChangeTracker } from '../../../src/localPlatform/persist/changes';
import { emptyState, type PlatformState } from '../../../src/localPlatform/state';

/** Saves what changed, replays it onto the copy saved before, and checks the copy is the state again. */
function saveAndReplay(tracker: ChangeTracker, state: PlatformState, saved: PlatformState): Change[] {
  const found = tracker.changes(state)!;
  const changes = found.changes.map((c) => JSON.parse(c) as Change);
  found.saved();
  applyChanges(saved, changes);
  assert.deepEqual(JSON.parse(JSON.stringify(saved)), JSON.parse(JSON.stringify(state)));
  return changes;
}

function withAgents(): PlatformState {
  const state = emptyState();
  state.agents.agents = {
    ag_1: { id: 'ag_1', name: 'One', tags: ['a'] } as never,
    ag_2: { id: 'ag_2', name: 'Two', tags: [] } as never,
  };
  state.counters = { ag: 2 };
  return state;
}

describe('local platform journal: what changed since the last save', () => {
  it('finds a change made in place deep inside a record, and writes that record only', () => {
    const state = withAgents();
    const saved = structuredClone(state);
    const tracker = new ChangeTracker();
    tracker.rebase(state);
    (state.agents.agents.ag_1 as unknown as { tags: string[] }).tags.push('b');
    const changes = saveAndReplay(tracker, state, saved);
    assert.deepEqual(changes, [{ s: ['agents', 'agents', 'ag_1'], v: { id: 'ag_1', name: 'One', tags: ['a', 'b'] } }]);
    assert.deepEqual(tracker.changes(state)!.changes, [], 'nothing is written twice');
  });

  it('finds added and removed records, a value set to undefined, and a map that became a single value', () => {
    const state = withAgents();
    const saved = structuredClone(state);
    const tracker = new ChangeTracker();
    tracker.rebase(state);
    Reflect.deleteProperty(state.agents.agents, 'ag_2');
    state.agents.agents.ag_3 = { id: 'ag_3', name: 'Three' } as never;
    (state.agents.agents.ag_1 as unknown as { name?: string }).name = undefined;
    state.counters.ag = 3;
    state.families.alerts = { rules: { r1: { id: 'r1' } } };
    saveAndReplay(tracker, state, saved);
    state.families.alerts = { rules: 'none' };
    saveAndReplay(tracker, state, saved);
    (state.agents.agents as Record<string, unknown>).ag_3 = undefined;
    assert.deepEqual(saveAndReplay(tracker, state, saved), [{ d: ['agents', 'agents', 'ag_3'] }]);
    state.families.alerts = { rules: { r2: { id: 'r2' } } };
    saveAndReplay(tracker, state, saved);
  });

  it('still finds a removal after a save that failed part way', () => {
    const state = withAgents();
    const saved = structuredClone(state);
    const tracker = new ChangeTracker();
    tracker.rebase(state);
    state.counters.ag = 3;
    assert.equal(tracker.changes(state)!.changes.length, 1, 'found, then not saved (the write failed)');
    Reflect.deleteProperty(state.agents.agents, 'ag_1');
    const changes = saveAndReplay(tracker, state, saved);
    assert.deepEqual(changes, [{ d: ['agents', 'agents', 'ag_1'] }, { s: ['counters', 'ag'], v: 3 }]);
  });

  it('compares what JSON would write: a Date or NaN in place of the saved value is a change only if its text is', () => {
    const state = withAgents();
    const saved = structuredClone(state);
    const tracker = new ChangeTracker();
    tracker.rebase(state);
    (state.agents.agents.ag_1 as unknown as { name: unknown }).name = new Date(0);
    (state.agents.agents.ag_2 as unknown as { score: unknown }).score = NaN;
    saveAndReplay(tracker, state, saved);
    assert.deepEqual(tracker.changes(state)!.changes, [], 'the same text again is no change');
  });
});
