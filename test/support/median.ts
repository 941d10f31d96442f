/** The middle of the values once sorted (the upper middle of an even count), as every figure reports it. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted[Math.floor(sorted.length / 2)];
  if (middle === undefined) throw new Error('no values to take the median of');
  return middle;
}
