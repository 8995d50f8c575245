/**
 * Politeness towards each target (an origin: scheme, host and port): at most `limit` requests in flight,
 * and none started while it asked to be left alone (a 429's `Retry-After`). verify's HTTP client passes
 * every request through one gate, so checks may ask at once and the target still sees at most `limit`.
 */
export interface TargetGate {
  /**
   * Waits for a free place at the URL's origin, past any pause it asked for, and takes it: the place's
   * release. Rejects with the signal's reason when the run stops meanwhile.
   */
  enter(url: string, signal: AbortSignal): Promise<() => void>;
  /** The origin asked for `ms` of quiet: no request to it starts before they have passed. */
  pause(url: string, ms: number): void;
}

interface Origin {
  active: number;
  /** Waiters for a place, oldest first. */
  queue: (() => void)[];
  /** Epoch ms before which no request starts (0: none asked). */
  quietUntil: number;
}

/** Waits `ms`, or rejects with the signal's reason when it is aborted first. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const stop = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", stop);
      resolve();
    }, ms);
    signal.addEventListener("abort", stop, { once: true });
  });
}

/**
 * A gate of `limit` places per origin (at least 1).
 *
 * @example
 * const gate = createTargetGate(4);
 * const leave = await gate.enter(url, signal);
 * try { answer = await send(); } finally { leave(); }
 * if (answer.status === 429) gate.pause(url, 1_000);
 */
export function createTargetGate(limit: number, now: () => number = Date.now): TargetGate {
  const places = Math.max(1, Math.floor(limit));
  const origins = new Map<string, Origin>();
  const originOf = (url: string): Origin => {
    const key = URL.canParse(url) ? new URL(url).origin : url;
    let origin = origins.get(key);
    if (!origin) {
      origin = { active: 0, queue: [], quietUntil: 0 };
      origins.set(key, origin);
    }
    return origin;
  };
  return {
    async enter(url, signal) {
      const origin = originOf(url);
      for (;;) {
        const quiet = origin.quietUntil - now();
        if (quiet > 0) await sleep(quiet, signal);
        else if (origin.active < places) break;
        else {
          await new Promise<void>((resolve, reject) => {
            if (signal.aborted) return reject(signal.reason);
            const wake = () => {
              signal.removeEventListener("abort", stop);
              resolve();
            };
            const stop = () => {
              origin.queue = origin.queue.filter((w) => w !== wake);
              reject(signal.reason);
            };
            origin.queue.push(wake);
            signal.addEventListener("abort", stop, { once: true });
          });
        }
      }
      origin.active++;
      let left = false;
      return () => {
        if (left) return;
        left = true;
        origin.active--;
        origin.queue.shift()?.();
      };
    },
    pause(url, ms) {
      const origin = originOf(url);
      origin.quietUntil = Math.max(origin.quietUntil, now() + ms);
    },
  };
}
