import { join } from "node:path";
import { createContext } from "./lib/context.js";
import { recordCassette } from "./lib/recording-parts.js";
const ctx = createContext({ durationSeconds: 1, rounds: 1, warmupSeconds: 0, only: [], write: false });
const t0 = Date.now();
try {
  const up = await ctx.start(ctx.system("upstream", ["--size", "2048"]));
  for (const n of [10_000, 100_000]) {
    await recordCassette(ctx, up.url, join(ctx.scratch, `r${n}.yaml`), n);
    console.log("ok", n, (Date.now() - t0) / 1000);
  }
} catch (e) { console.log("ERR", (Date.now() - t0) / 1000, e, (e as Error).cause); } finally { await ctx.dispose(); }
