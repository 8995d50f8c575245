import { join } from "node:path";
import type { BenchContext } from "./context.js";
import type { Section } from "./report.js";
import { whole } from "./stats.js";

/** How long a replay may take to load its cassette before the bench gives up on it (100,000 interactions). */
export const LOAD_TIMEOUT_MS = 300_000;

/** What starting a replay of one cassette took, as `bench/systems/replay-loaded.ts` reports it. */
export interface Loading {
  interactions: number;
  loadMs: number;
  heapMb: number;
  externalMb: number;
  rssMb: number;
}

/**
 * Starts a replay of each cassette in a process of its own (`startReplay` of the built package, as the
 * CLI calls it), reads how long loading and indexing took and the memory kept once it listens, and stops
 * it. One start per cassette: loading 100,000 interactions takes tens of seconds.
 */
export async function loadFigures(
  ctx: BenchContext,
  cassettes: ReadonlyMap<number, string>,
): Promise<Loading[]> {
  const out: Loading[] = [];
  for (const [count, file] of cassettes) {
    ctx.log(`replay: loading ${whole(count)} interactions`);
    const child = await ctx.start({
      ...ctx.system("replay-loaded", [join(ctx.root, "dist", "proxy", "index.js"), file]),
      startTimeoutMs: LOAD_TIMEOUT_MS,
    });
    const figures = /REPLAY \S+ (\{.*\})/.exec(child.line)?.[1];
    await child.close();
    if (!figures) throw new Error(`replay of ${file} printed no figures: ${child.line}`);
    const loading = JSON.parse(figures) as Loading;
    ctx.log(`  ${whole(loading.interactions)}: ${whole(loading.loadMs)} ms, heap ${loading.heapMb} MB`);
    out.push(loading);
  }
  return out;
}

/** The table of `loadFigures`. */
export function loadingSection(loading: readonly Loading[]): Section {
  return {
    title: "Replay: loading the cassette",
    command: "npm run bench -- --only replay",
    table: {
      header: ["interactions", "load and index", "heap after load", "buffers after load", "RSS after load"],
      rows: loading.map((l) => [
        whole(l.interactions),
        `${whole(l.loadMs)} ms`,
        `${l.heapMb} MB`,
        `${l.externalMb} MB`,
        `${whole(l.rssMb)} MB`,
      ]),
    },
    targets: [],
    notes: [
      "The cassettes of the replay rows above (2 KB JSON bodies, recorded through `assopay record`), each started once by `startReplay` in a process of its own: the time until it listens, then the memory it keeps. `startReplay` collects garbage before it listens, so the heap is what the index keeps; the response bodies are held as bytes outside the heap (buffers); RSS still counts what loading took at its peak and has not been given back to the system.",
    ],
  };
}
