/**
 * A function whose result is kept for each object it is given, as long as the object lives: the check session keeps
 * a file's parsed parts while its text stays the same, so what is derived from them is computed once for every rule
 * and every check that reads it.
 */
export function perObject<K extends object, V>(compute: (key: K) => V): (key: K) => V {
  const known = new WeakMap<K, V>();
  return (key) => {
    let value = known.get(key);
    if (value === undefined) {
      value = compute(key);
      known.set(key, value);
    }
    return value;
  };
}
