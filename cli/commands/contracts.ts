import { join } from "node:path";
import { stalePacts, writePacts } from "../../contracts/pact/generate.js";
import { MANIFEST_NAME } from "../../contracts/pact/manifest.js";
import type { Contract } from "../../contracts/types.js";
import { type IsoDay, todayIso } from "../../core/dates.js";
import { contractsDir } from "../../core/paths.js";
import { type Command, contractLoader } from "../command.js";
import { dateFlag, parseFlags, stringFlag } from "../flags.js";
import { PUBLISH_CONTRACTS_HELP, publishContracts } from "./contracts-publish.js";

const HELP = `assopay contracts: summarise the contract and write its Pact files

Usage: assopay contracts [--at YYYY-MM-DD] [--timeline FILE] [--out DIR [--force]] [--check]
       assopay contracts publish --broker-url URL [--consumer-app-version V] [--branch B] [--dir DIR]

Reads contracts/ (routes, JSON Schemas, timeline, notification types, provider states), checks every
file, prints what holds at the date, and writes one Pact V4 file per era of the timeline, with a
manifest (${MANIFEST_NAME}) of what it wrote and each file's hash: a later run replaces or removes
only those files, and only while unchanged. A file modified since, or one assopay did not write, is
kept and the run refused (exit 2) unless --force.

Flags:
  --at YYYY-MM-DD   the date of the summary (default: today)
  --timeline FILE   your own timeline file instead of contracts/timeline.yaml
  --out DIR         the folder to write the pact files to (default: contracts/pacts)
  --force           replace pact files in --out that assopay did not write, or that were modified since
  --check           write nothing; exit 1 if the files in --out differ from what the contract generates
  -h, --help        this text

Exit codes: 0 done (or up to date), 1 stale pact files (--check), 2 a bad contract file or bad usage.

Examples:
  npm run contracts
  assopay contracts --check
  assopay contracts --at 2025-06-15 --timeline ./announced.yaml --out /tmp/pacts
  assopay contracts publish --broker-url https://broker.example --consumer-app-version "$GIT_SHA" --branch main

${PUBLISH_CONTRACTS_HELP}`;

function summary(contract: Contract, at: IsoDay): string {
  const lines: string[] = [];
  const versions = ["v5", "v3", "root"] as const;
  lines.push(
    `Contract as of ${at}: ${contract.routes.all.length} routes, ${contract.schemas.names().length} schemas, ${contract.rules.length} rules`,
  );
  for (const version of versions) {
    const routes = contract.routes.all.filter((r) => r.version === version);
    lines.push(`  ${version.padEnd(4)} ${routes.length} routes`);
  }
  lines.push("", "Timeline:");
  for (const entry of contract.timeline.entries) {
    const state = entry.date <= at ? "in force" : "ahead";
    lines.push(
      `  ${entry.date}${entry.approximate ? "~" : " "} ${entry.status.padEnd(7)} ${state.padEnd(8)} ${entry.summary}`,
    );
  }
  lines.push("", `Listing routes at ${at}:`);
  for (const route of contract.routes.listings()) {
    const rules = contract.timeline.datedRulesAt(route, at);
    const served = rules.served ? "served" : "switched off";
    lines.push(
      `  ${route.method} ${route.path}  [${route.pagination?.resultArray}] ${served}, counts: ${rules.countMode}`,
    );
  }
  lines.push(
    "",
    `Notification types: ${contract.notificationTypes.map((t) => `${t.eventType}${t.assumed ? " (assumed)" : ""}`).join(", ")}`,
  );
  return `${lines.join("\n")}\n`;
}

export const contractsCommand: Command = {
  name: "contracts",
  summary: "Summarise the contract and write the Pact files to contracts/pacts/",
  help: HELP,
  async run(context) {
    if (context.argv[0] === "publish") return publishContracts(context, context.argv.slice(1));
    const flags = parseFlags("contracts", context.argv, {
      at: { type: "string" },
      timeline: { type: "string" },
      out: { type: "string" },
      check: { type: "boolean" },
      force: { type: "boolean" },
    });
    const at = dateFlag("contracts", stringFlag(flags, "at")) ?? todayIso();
    const timelineFile = stringFlag(flags, "timeline");
    const contract = contractLoader(context)(timelineFile ? { timelineFile } : {});
    const out = stringFlag(flags, "out") ?? join(contractsDir(), "pacts");
    context.stdout.write(summary(contract, at));
    if (flags.values.check === true) {
      const stale = stalePacts(contract, out);
      if (stale.length > 0) {
        context.stdout.write(
          `\nStale pact files in ${out}:\n${stale.map((s) => `  ${s}`).join("\n")}\nRun 'npm run contracts' to regenerate them.\n`,
        );
        return 1;
      }
      context.stdout.write(`\nPact files in ${out} are up to date.\n`);
      return 0;
    }
    const { files, kept } = writePacts(contract, out, { force: flags.values.force === true });
    for (const line of kept) context.stderr.write(`${line}\n`);
    context.stdout.write(
      `\nWrote ${files.length} pact files to ${out}:\n${files.map((f) => `  ${f.name}`).join("\n")}\n`,
    );
    return 0;
  },
};
