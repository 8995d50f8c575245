/** A per-run cache of shared work (crawls, provider-state set-ups): each key is computed once. */
export interface Memo {
  get<T>(key: string, compute: () => Promise<T>): Promise<T>;
}

export function createMemo(): Memo {
  const cache = new Map<string, Promise<unknown>>();
  return {
    get<T>(key: string, compute: () => Promise<T>): Promise<T> {
      const known = cache.get(key);
      if (known) return known as Promise<T>;
      const started = compute();
      cache.set(key, started);
      return started;
    },
  };
}

/**
 * A memo for one date of a run across dates against a provider at a fixed date: keys starting with one
 * of `prefixes` (crawls, the coordinates) come from `shared`, computed once for every date, since the
 * provider's answers cannot differ between dates; the rest (fixtures that change the target's data, such
 * as a checkout intent) are the date's own.
 */
export function sharingMemo(shared: Memo, prefixes: readonly string[]): Memo {
  const own = createMemo();
  return {
    get<T>(key: string, compute: () => Promise<T>): Promise<T> {
      return prefixes.some((prefix) => key.startsWith(prefix))
        ? shared.get(key, compute)
        : own.get(key, compute);
    },
  };
}
