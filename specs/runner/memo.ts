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
