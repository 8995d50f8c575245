// gate's wall time per scenario on the embedded sandbox (its default 65 entries), for each build (a copy
// of dist/) in a process of its own, the builds in alternation: what a scenario adds to an SDK's CI run.
// The SDK is test/gate/fixtures/clients/correct.mjs (it retries refusals as the retry rules ask), the
// same for every build. Prints, per build and round, the milliseconds of each scenario of that build's
// default set, and their total.
// Usage: node --import tsx bench/gate-scenarios.ts DIST [DIST ...] [--rounds N]
// Example: npm run build && rm -rf .scratch/before && cp -r dist .scratch/before   # then change the code
//          npm run build && node --import tsx bench/gate-scenarios.ts .scratch/before dist
import { join } from "node:path";
import { parseArgs } from "node:util";
import { packageRoot } from "../core/paths.js";
import { alternateBuilds, fromBuild } from "./lib/builds.js";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rounds: { type: "string", default: "3" },
    child: { type: "boolean", default: false },
  },
});

const CLIENT = join(packageRoot(), "test", "gate", "fixtures", "clients", "correct.mjs");

/** In the child: each scenario of the build's default set run once, in the catalogue's order. */
async function measure(dist: string): Promise<Record<string, number>> {
  const { runGate } = await fromBuild(dist, "gate/run.js");
  const { SCENARIO_NAMES } = await fromBuild(dist, "gate/scenarios.js");
  const { loadContract } = await fromBuild(dist, "contracts/index.js");
  const contract = loadContract();
  const command = [process.execPath, CLIENT];
  await runGate({ command, scenarios: ["uniform"], contract }); // warm-up
  const spent: Record<string, number> = {};
  let total = 0;
  for (const scenario of SCENARIO_NAMES as string[]) {
    const started = performance.now();
    const report = await runGate({ command, scenarios: [scenario], contract });
    if (!report.passed) throw new Error(`the correct client failed ${scenario}`);
    spent[scenario] = Math.round(performance.now() - started);
    total += spent[scenario] ?? 0;
  }
  return { ...spent, total };
}

if (values.child) {
  console.log(JSON.stringify(await measure(positionals[0] ?? "dist")));
} else {
  alternateBuilds(process.argv[1] ?? "bench/gate-scenarios.ts", positionals, {
    rounds: Number(values.rounds),
    childArgs: [],
    label: "wall ms per scenario",
  });
}
