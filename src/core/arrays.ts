/** The item of a list that holds exactly one; undefined for an empty list or one of several. */
export function soleItem<T>(items: readonly T[]): T | undefined {
  const [first, ...others] = items;
  return others.length === 0 ? first : undefined;
}
