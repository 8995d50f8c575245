import type { Writable } from "node:stream";

/** Where long tasks (crawls, waits) say how far they got. */
export interface Progress {
  update(label: string, detail: string): void;
  /** The task ended: clears the live line. */
  done(): void;
}

export const silentProgress: Progress = Object.freeze({ update() {}, done() {} });

/**
 * On a terminal: one live line, redrawn at most ten times a second. Elsewhere (CI logs): a plain line
 * every `intervalMs` (default 10 s), so a long crawl shows it is alive without flooding the log.
 */
export function createProgress(
  stream: Writable & { isTTY?: boolean },
  options: { intervalMs?: number; now?: () => number } = {},
): Progress {
  const now = options.now ?? Date.now;
  const tty = stream.isTTY === true;
  const interval = tty ? 100 : (options.intervalMs ?? 10_000);
  let lastWrite = now();
  let live = false;
  return {
    update(label, detail) {
      const at = now();
      if (at - lastWrite < interval) return;
      lastWrite = at;
      if (tty) {
        stream.write(`\r\x1b[2K… ${label}: ${detail}`);
        live = true;
      } else {
        stream.write(`… ${label}: ${detail}\n`);
      }
    },
    done() {
      if (live) stream.write("\r\x1b[2K");
      live = false;
    },
  };
}
