/** Where a deployment's label goes over the plot: a row and a left edge, or a marker when no row has room. */
export type LabelPlace = { row: number; left: number } | { marker: true };

export interface LabelRoom {
  /** Width of the plotting area, CSS pixels. */
  width: number;
  /** Rows of labels at the top of the plot. */
  rows: number;
  /** Space kept between a line and its label, and between two labels. */
  gap: number;
}

/**
 * Lays the deployments' labels out so that none covers another: each goes right of its line (left of it at the
 * right edge), in the first row where it meets no label already placed; a label that fits in no row becomes a
 * marker (its tooltip and the deployment list below the chart name it). Labels are taken in time order, so the
 * earlier deployment keeps the top row.
 */
export function layoutLabels(items: ReadonlyArray<{ x: number; width: number }>, room: LabelRoom): LabelPlace[] {
  const taken: Array<Array<[number, number]>> = Array.from({ length: room.rows }, () => []);
  const order = items.map((_, i) => i).sort((a, b) => items[a]!.x - items[b]!.x);
  const places: LabelPlace[] = new Array<LabelPlace>(items.length);
  for (const i of order) {
    const { x, width } = items[i]!;
    const right = x + room.gap;
    const left = right + width <= room.width ? right : Math.max(0, x - room.gap - width);
    const end = left + width;
    const row = taken.findIndex((spans) => spans.every(([a, b]) => end + room.gap <= a || left >= b + room.gap));
    if (row < 0 || end > room.width) {
      places[i] = { marker: true };
      continue;
    }
    taken[row]!.push([left, end]);
    places[i] = { row, left };
  }
  return places;
}
