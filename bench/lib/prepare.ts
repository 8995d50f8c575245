import type { BenchContext } from "./context.js";
import { recordArgs } from "./recording-parts.js";

/** Sends `count` distinct GETs (`?i=1..count`) through a URL, `concurrency` at a time. */
export async function sendDistinct(
  base: string,
  path: string,
  count: number,
  concurrency = 32,
): Promise<void> {
  let next = 1;
  const worker = async () => {
    while (next <= count) {
      const i = next++;
      const response = await fetch(`${base}${path}&i=${i}`);
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`priming request ${i} answered ${response.status}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/**
 * Records `count` distinct exchanges through `assopay record` into a cassette, then stops the recorder.
 * Unbounded: 100,000 exchanges of 2 KB make a cassette past the default bound (256 MiB).
 */
export async function recordCassette(
  ctx: BenchContext,
  upstream: string,
  cassette: string,
  path: string,
  count: number,
): Promise<void> {
  const recorder = await ctx.start(ctx.assopay(recordArgs(upstream, cassette)));
  await sendDistinct(recorder.url, path, count);
  await recorder.close();
}
