// npm run bench [-- --duration S --rounds N --warmup S --only SUITE... --no-write]
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { type BenchContext, createContext } from "./lib/context.js";
import {
  inSuiteOrder,
  keptSections,
  renderSection,
  type Section,
  textTable,
  withMeasuredLine,
} from "./lib/report.js";
import { cassetteLoadSuite } from "./suites/cassette-load.js";
import { recorderDecisionSuite } from "./suites/recorder-decision.js";
import { recordingSuite } from "./suites/recording.js";
import { redactionSuite } from "./suites/redaction.js";
import { replaySuite } from "./suites/replay.js";
import { verifySuite } from "./suites/verify.js";
import { verifyLatencySuite } from "./suites/verify-latency.js";

type Suite = (ctx: BenchContext) => Promise<Section[]>;
const SUITES: Record<string, Suite> = {
  recording: recordingSuite,
  "recorder-decision": recorderDecisionSuite,
  replay: replaySuite,
  verify: verifySuite,
  "verify-latency": verifyLatencySuite,
  "cassette-load": cassetteLoadSuite,
  redaction: redactionSuite,
};

const HELP = `npm run bench -- [flags]

Runs the benchmarks side by side, in one run, and rewrites docs/benchmarks.md.

  --duration S   seconds per load run (default 10)
  --rounds N     rounds of alternation (A B C, B C A, …) per suite (default 3)
  --warmup S     warm-up seconds per system before the rounds (default 2)
  --only NAME    run only this suite (repeatable): ${Object.keys(SUITES).join(", ")}
  --no-write     print the tables, leave docs/benchmarks.md alone
`;

const { values } = parseArgs({
  options: {
    duration: { type: "string", default: "10" },
    rounds: { type: "string", default: "3" },
    warmup: { type: "string", default: "2" },
    only: { type: "string", multiple: true },
    "no-write": { type: "boolean", default: false },
    help: { type: "boolean", default: false },
  },
});
if (values.help) {
  process.stdout.write(HELP);
  process.exit(0);
}
const only = values.only ?? Object.keys(SUITES);
for (const name of only) {
  if (!SUITES[name]) {
    process.stderr.write(`bench: unknown suite "${name}"; known: ${Object.keys(SUITES).join(", ")}\n`);
    process.exit(2);
  }
}
const ctx = createContext(
  Object.freeze({
    durationSeconds: Number(values.duration),
    rounds: Number(values.rounds),
    warmupSeconds: Number(values.warmup),
  }),
);

const sections: Section[] = [];
const started = new Date();
try {
  for (const name of only) {
    ctx.log(`\n== ${name}`);
    const command = `npm run bench -- --only ${name}`;
    try {
      sections.push(...(await (SUITES[name] as Suite)(ctx)).map((s) => ({ ...s, command })));
    } catch (error) {
      const message = (error as Error).message.split("\n").slice(0, 3).join(" ");
      ctx.log(`  ${name} failed: ${message}`);
      sections.push({
        title: `${name} (did not complete)`,
        command,
        table: { header: ["error"], rows: [[message]] },
      });
    }
    await ctx.closeAll();
  }
} finally {
  await ctx.dispose();
}

for (const section of sections) {
  process.stdout.write(`\n${section.title}\n${textTable(section.table.header, section.table.rows)}\n`);
  for (const t of section.targets ?? [])
    process.stdout.write(
      `  ${t.met === true ? "met " : t.met === "n/a" ? "n/a " : "MISS"}  ${t.target}: ${t.measured}\n`,
    );
}

if (!values["no-write"]) {
  const versionIn = (dir: string) =>
    (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version: string }).version;
  const version = (pkg: string) => {
    try {
      return versionIn(join(ctx.root, "bench", "node_modules", pkg));
    } catch {
      return "not installed";
    }
  };
  const ours = versionIn(ctx.root);
  const header = [
    "# Benchmarks",
    "",
    "Written by `npm run bench` (bench/main.ts); every figure below was measured in one run of it, named under its section's command.",
    "The load generator (autocannon), the upstream and the system under test run as separate processes and",
    "share the machine's cores, so the figures that matter are the ratios, measured side by side in one run:",
    `systems are measured in alternation, each round starting one place further along (A B C, B C A, …), ${ctx.options.rounds} rounds of ${ctx.options.durationSeconds} s each after a ${ctx.options.warmupSeconds} s warm-up, and each figure is the median of its rounds.`,
    "",
    `- Run: ${started.toISOString()}, suites: ${only.join(", ")} (a section of a suite not run this time is kept from the run that measured it, and says which)`,
    `- Machine: ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
    `- Versions: assopay-contract ${ours}, autocannon ${version("autocannon")}, talkback ${version("talkback")}, mockttp ${version("mockttp")}, wiremock ${version("wiremock")} (Java 17), @stoplight/prism-cli ${version("@stoplight/prism-cli")}`,
    `- Command: \`npm run bench -- --duration ${ctx.options.durationSeconds} --rounds ${ctx.options.rounds}${values.only ? ` ${only.map((o) => `--only ${o}`).join(" ")}` : ""}\``,
    "- What was profiled and fixed where a target was missed, with before/after figures: [bench/history/performance-log.md](../bench/history/performance-log.md)",
    "",
  ].join("\n");
  const file = join(ctx.root, "docs", "benchmarks.md");
  const previous = existsSync(file) ? readFileSync(file, "utf8") : "";
  const fresh = sections.map((s) => withMeasuredLine(renderSection(s), started.toISOString()));
  writeFileSync(
    file,
    `${header}\n${inSuiteOrder([...fresh, ...keptSections(previous, only)], Object.keys(SUITES)).join("\n\n")}\n`,
  );
  process.stdout.write("\nwrote docs/benchmarks.md\n");
}
