// The CPU of one verify run (every group but Pact) against a sandbox of 50 entries a form: the unit the
// suite's fault matrices, legal variants and clean runs are made of (bench/history/test-durations.md), measured for
// each build (a copy of dist/) in a process of its own, the builds in alternation. Prints, per build and
// round, the median of --runs runs after 3 to warm up, without provider states at 2026-01-01 and with
// them at 2025-04-01.
// Usage: node --import tsx bench/verify-run.ts DIST [DIST ...] [--rounds N] [--runs N]
// Example: npm run build && rm -rf .scratch/before && cp -r dist .scratch/before   # then change the code
//          npm run build && node --import tsx bench/verify-run.ts .scratch/before dist
import { parseArgs } from "node:util";
import { alternateBuilds, fromBuild } from "./lib/builds.js";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rounds: { type: "string", default: "3" },
    runs: { type: "string", default: "7" },
    child: { type: "boolean", default: false },
  },
});

const CASES = [
  { at: "2026-01-01", hooks: false },
  { at: "2025-04-01", hooks: true },
] as const;

/** In the child: the median CPU (ms) of `runs` verify runs per case, from the build in `dist`. */
async function measure(dist: string, runs: number): Promise<Record<string, number>> {
  const load = (path: string) => fromBuild(dist, path);
  const { startSandbox } = await load("sandbox/index.js");
  const { loadContract } = await load("contracts/index.js");
  const { allChecks } = await load("specs/index.js");
  const { resolveOptions } = await load("specs/runner/options.js");
  const { runVerify } = await load("specs/runner/run.js");
  const { CHECK_GROUPS } = await load("specs/runner/types.js");
  const contract = loadContract();
  const once = async (at: string, hooks: boolean): Promise<void> => {
    const sandbox = await startSandbox({ port: 0, at, entries: 50, contract, hooks });
    try {
      const c = sandbox.credentials;
      const options = resolveOptions({
        ...{ target: sandbox.url, embedded: true, at, reader: c.reader, admin: c.admin },
        ...{ organizationSlug: c.organizationSlug, formType: c.formType, formSlug: c.formSlug },
        ...(hooks ? { stateUrl: sandbox.stateUrl } : {}),
        ...{ eventWaitMs: 2_000, notificationTimeoutMs: 3_000, maxPages: 30 },
        only: CHECK_GROUPS.filter((group: string) => group !== "pact"),
      });
      const report = await runVerify(options, allChecks(), { contract });
      const failed = report.outcomes.filter((o: { verdict: string }) => o.verdict === "fail");
      if (failed.length > 0) throw new Error(`the clean sandbox failed ${failed.length} checks at ${at}`);
    } finally {
      await sandbox.close();
    }
  };
  const cpuMs = () => {
    const used = process.cpuUsage();
    return (used.user + used.system) / 1000;
  };
  for (let i = 0; i < 3; i++) await once("2026-01-01", false);
  const medians: Record<string, number> = {};
  for (const { at, hooks } of CASES) {
    const spent: number[] = [];
    for (let i = 0; i < runs; i++) {
      const before = cpuMs();
      await once(at, hooks);
      spent.push(cpuMs() - before);
    }
    spent.sort((a, b) => a - b);
    medians[`${at}${hooks ? " with states" : ""}`] = Math.round(spent[Math.floor(runs / 2)] ?? 0);
  }
  return medians;
}

if (values.child) {
  console.log(JSON.stringify(await measure(positionals[0] ?? "dist", Number(values.runs))));
} else {
  alternateBuilds(process.argv[1] ?? "bench/verify-run.ts", positionals, {
    rounds: Number(values.rounds),
    childArgs: ["--runs", String(values.runs)],
    label: "CPU ms per run",
  });
}
