import { join } from "node:path";
import type { BenchContext } from "../lib/context.js";
import { type Loaded, loaded, recordCassette } from "../lib/record.js";
import { median, type Section, whole } from "../lib/report.js";

/** Time and memory to load a 10,000-interaction cassette (recorded through assopay record). */
export async function cassetteLoadSuite(ctx: BenchContext): Promise<Section[]> {
  const upstream = await ctx.start(ctx.system("upstream", ["--size", "2048"]));
  const cassette = join(ctx.scratch, "load-10000.yaml");
  ctx.log("cassette load: recording 10,000 interactions");
  await recordCassette(ctx, upstream.url, cassette, 10_000);
  const runs: Loaded[] = [];
  for (let round = 0; round < Math.max(3, ctx.options.rounds); round++) {
    runs.push(await loaded(ctx, cassette));
    ctx.log(`  round ${round + 1}: ${runs.at(-1)?.ms} ms`);
  }
  return [
    {
      title: "Cassette load",
      table: {
        header: ["interactions", "load time (median)", "heap after load", "peak RSS"],
        rows: [
          [
            whole(runs[0]?.interactions ?? 0),
            `${whole(median(runs.map((r) => r.ms)))} ms`,
            `${median(runs.map((r) => r.heapGrewMb))} MB`,
            `${whole(median(runs.map((r) => r.maxRssKb)) / 1024)} MB`,
          ],
        ],
      },
      notes: ["Each load runs in a fresh process with `--expose-gc`; heap is measured after a collection."],
    },
  ];
}
