import { stat } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";

/**
 * A `--max-cassette-bytes` no bench round reaches: rounds record hundreds of megabytes, past the default
 * bound (256 MiB), after which a recorder answers 507.
 */
export const NO_CASSETTE_BOUND = String(64 * 1024 ** 3);

/** The journals a recorder on `cassette` may write: its own, and in `--mode all` the new file's. */
function journalsOf(cassette: string): string[] {
  return [`${cassette}.journal`, `${cassette}.recording.journal`];
}

async function pending(file: string): Promise<number> {
  try {
    return (await stat(file)).size;
  } catch {
    return 0;
  }
}

/**
 * Waits until assopay record has turned everything it journaled into YAML (its journal is emptied then)
 * and returns how long that took, in ms: the time from the end of a burst to a complete cassette.
 * Under load the recorder answers first and writes the cassette with the CPU time left over.
 */
export async function cassetteCaughtUp(cassette: string, timeoutMs = 300_000): Promise<number> {
  const started = performance.now();
  for (;;) {
    const sizes = await Promise.all(journalsOf(cassette).map(pending));
    if (sizes.every((size) => size === 0)) return performance.now() - started;
    if (performance.now() - started > timeoutMs) {
      throw new Error(`${cassette}: the recorder had not caught up after ${timeoutMs / 1000} s`);
    }
    await sleep(10);
  }
}
