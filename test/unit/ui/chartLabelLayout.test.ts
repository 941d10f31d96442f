import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { layoutLabels } from '../../../webview/concurrency/labelLayout';

const room = { width: 400, rows: 3, gap: 3 };
const spans = (items: ReadonlyArray<{ x: number; width: number }>) =>
  layoutLabels(items, room).map((p, i) =>
    'marker' in p ? undefined : { row: p.row, left: p.left, right: p.left + items[i]!.width },
  );

test('deployment labels close in time go to rows of their own, never covering each other', () => {
  const items = [
    { x: 100, width: 80 },
    { x: 110, width: 80 },
    { x: 120, width: 80 },
  ];
  const placed = spans(items);
  assert.deepEqual(
    placed.map((p) => p?.row),
    [0, 1, 2],
  );
  // Far enough apart, two labels share the top row.
  assert.deepEqual(
    spans([
      { x: 10, width: 50 },
      { x: 200, width: 50 },
    ]).map((p) => p?.row),
    [0, 0],
  );
});

test('a label with no row free becomes a marker; one at the right edge goes left of its line', () => {
  const places = layoutLabels(
    [0, 1, 2, 3].map((i) => ({ x: 100 + i, width: 80 })),
    room,
  );
  assert.deepEqual(places[3], { marker: true });
  const edge = layoutLabels([{ x: 390, width: 60 }], room)[0]!;
  assert.ok(!('marker' in edge) && edge.left + 60 <= 390, 'left of the line, inside the plot');
});

test('whatever the times, no two labels placed in one row overlap', () => {
  for (let seed = 1; seed < 50; seed++) {
    const items = Array.from({ length: 12 }, (_, i) => ({
      x: (seed * 37 * (i + 1)) % 400,
      width: 40 + ((seed + i) % 5) * 10,
    }));
    const placed = spans(items).filter((p) => p !== undefined);
    for (const [i, a] of placed.entries())
      for (const b of placed.slice(i + 1))
        if (a.row === b.row)
          assert.ok(a.right <= b.left || b.right <= a.left, `seed ${seed}: ${JSON.stringify([a, b])}`);
    for (const p of placed) assert.ok(p.left >= 0 && p.right <= room.width, 'inside the plot');
  }
});
