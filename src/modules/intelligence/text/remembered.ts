/**
 * `compute` with its results remembered per key, at most `max` of them (forgotten all at once when
 * full: no bookkeeping per hit). For pure functions of a word that code repeats (keywords, its own
 * identifiers): splitting and stemming each word once is most of the cost of reading a snippet.
 */
export function remembered<T>(max: number, compute: (key: string) => T): (key: string) => T {
  const known = new Map<string, T>();
  return (key) => {
    let value = known.get(key);
    if (value === undefined) {
      if (known.size >= max) known.clear();
      known.set(key, (value = compute(key)));
    }
    return value;
  };
}
