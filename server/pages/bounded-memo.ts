/**
 * Remembers `compute(key)` per key, and forgets everything once `limit` keys are held: for keys
 * that come from outside the code (a request's header, a style's text), so that the memory
 * cannot grow without end.
 */
export function boundedMemo<T>(limit: number): (key: string, compute: (key: string) => T) => T {
  const values = new Map<string, T>();
  return (key, compute) => {
    let value = values.get(key);
    if (value === undefined) {
      if (values.size >= limit) values.clear();
      value = compute(key);
      values.set(key, value);
    }
    return value;
  };
}
