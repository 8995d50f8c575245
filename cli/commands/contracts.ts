import { spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { MANIFEST_NAME, stalePacts, writePacts } from "../../contracts/pact/generate.js";
import type { Contract } from "../../contracts/types.js";
import { type IsoDay, todayIso } from "../../core/dates.js";
import { AssopayError, httpUrl } from "../../core/errors.js";
import { readInputText } from "../../core/input-file.js";
import { contractsDir, packageRoot } from "../../core/paths.js";
import { redactSecretText } from "../../core/secrets/text.js";
import { type Command, type CommandContext, contractLoader } from "../command.js";
import { dateFlag, parseFlags, stringFlag } from "../flags.js";

/** The help of `assopay contracts publish`, part of `assopay contracts --help`. */
const PUBLISH_CONTRACTS_HELP = `Publishing to a Pact Broker (PactFlow or self-hosted):
  assopay contracts publish --broker-url URL [--consumer-app-version V] [--branch B] [--dir DIR]

  Runs the official Pact client (\`pact broker publish\`, from @pact-foundation/pact-cli) on the pact
  files of DIR (default contracts/pacts). Without --consumer-app-version the client detects the version
  and branch from git. The broker's credentials are read by the client from PACT_BROKER_TOKEN (or
  PACT_BROKER_USERNAME and PACT_BROKER_PASSWORD).

  --broker-url URL            the broker                                  env PACT_BROKER_BASE_URL
  --consumer-app-version V    the consumer version (a git SHA is best)
  --branch B                  the consumer's branch
  --dir DIR                   the folder of pact files (default contracts/pacts)

  Exit codes: 0 published, 1 the client or the broker refused, 2 bad usage or no Pact client.
`;

/**
 * The official Pact client's entry script: the project's own `@pact-foundation/pact-cli` (from the
 * working directory), else the one installed with assopay.
 */
export function pactClientScript(cwd: string): string | undefined {
  for (const from of [join(cwd, "package.json"), join(packageRoot(), "package.json")]) {
    try {
      const manifest = createRequire(from).resolve("@pact-foundation/pact-cli/package.json");
      const script = join(dirname(manifest), "bin", "pact.js");
      if (existsSync(script)) return script;
    } catch {
      // not installed there; try the next place
    }
  }
  return undefined;
}

/** A broker: its URL without credentials, and the credentials the URL held (given to the client by env). */
interface Broker {
  readonly url: string;
  readonly env: Readonly<Record<string, string>>;
}

function brokerUrl(text: string | undefined): Broker {
  if (text === undefined) {
    throw new AssopayError("usage", "assopay contracts publish needs --broker-url", {
      hint: "give --broker-url https://your-broker or set PACT_BROKER_BASE_URL",
    });
  }
  const url = httpUrl(text);
  if (!url) {
    throw new AssopayError("usage", `--broker-url must be an http(s) URL, got "${redactSecretText(text)}"`, {
      hint: "for example --broker-url https://broker.example",
    });
  }
  if (url.username === "" && url.password === "") return { url: text, env: {} };
  // Credentials in the URL go to the client by its own variables, never on its command line (which
  // other users of the machine can read) nor into what it prints.
  const env = {
    PACT_BROKER_USERNAME: decodeURIComponent(url.username),
    PACT_BROKER_PASSWORD: decodeURIComponent(url.password),
  };
  url.username = "";
  url.password = "";
  return { url: url.href.replace(/\/$/, ""), env };
}

/** A sink that writes whole lines redacted (`core/secrets`), the last partial line at `flush`. */
function redactedLines(write: (text: string) => void): { push(chunk: Buffer): void; flush(): void } {
  let pending = "";
  return {
    push(chunk) {
      pending += chunk.toString("utf8");
      const end = pending.lastIndexOf("\n");
      if (end < 0) return;
      write(redactSecretText(pending.slice(0, end + 1)));
      pending = pending.slice(end + 1);
    },
    flush() {
      if (pending !== "") write(redactSecretText(pending));
      pending = "";
    },
  };
}

function pactDir(text: string | undefined): string {
  const dir = text ?? join(contractsDir(), "pacts");
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new AssopayError("usage", `--dir ${dir}: no such folder`, {
      hint: "run 'assopay contracts --out DIR' to write the pact files first",
    });
  }
  const files = readdirSync(dir).filter((name) => name.endsWith(".json"));
  if (files.length === 0) {
    throw new AssopayError("usage", `--dir ${dir}: no pact files (*.json) in it`, {
      hint: "run 'assopay contracts --out DIR' to write the pact files first",
    });
  }
  // Every *.json is published: one that is no pact would go out as an empty pact, overwriting one.
  for (const name of files) {
    const file = join(dir, name);
    if (!isPact(readInputText(file, "usage", "pact file"))) {
      throw new AssopayError(
        "usage",
        `--dir ${dir}: ${name} is not a pact file (a JSON object with consumer.name, provider.name and a non-empty interactions list was expected); nothing was published`,
        {
          location: { file, line: 1 },
          hint: "give --dir a folder holding only pact files ('assopay contracts --out DIR' writes one)",
        },
      );
    }
  }
  return dir;
}

/** Whether a text is a pact: consumer and provider named, and at least one interaction. */
function isPact(text: string): boolean {
  try {
    const pact = JSON.parse(text) as {
      consumer?: { name?: unknown };
      provider?: { name?: unknown };
      interactions?: unknown;
    };
    return (
      typeof pact?.consumer?.name === "string" &&
      typeof pact.provider?.name === "string" &&
      Array.isArray(pact.interactions) &&
      pact.interactions.length > 0
    );
  } catch {
    return false;
  }
}

/** `assopay contracts publish`: the pact files published by the official client; its exit code mapped. */
async function publishContracts(context: CommandContext, argv: readonly string[]): Promise<number> {
  const flags = parseFlags("contracts publish", argv, "broker-url= consumer-app-version= branch= dir=");
  const broker = brokerUrl(
    stringFlag(flags, "broker-url", { vars: context.env, name: "PACT_BROKER_BASE_URL" }),
  );
  const dir = pactDir(stringFlag(flags, "dir"));
  const script = pactClientScript(process.cwd());
  if (!script) {
    throw new AssopayError("usage", "the official Pact client (@pact-foundation/pact-cli) is not installed", {
      hint: "npm install --save-dev --save-exact @pact-foundation/pact-cli@18.1.2",
    });
  }
  const version = stringFlag(flags, "consumer-app-version");
  const branch = stringFlag(flags, "branch");
  // The arguments given to `pact`: standard flags of `pact broker publish`, nothing else.
  const args = [
    "broker",
    "publish",
    dir,
    "--broker-base-url",
    broker.url,
    ...(version === undefined ? ["--auto-detect-version-properties"] : ["--consumer-app-version", version]),
    ...(branch === undefined ? [] : ["--branch", branch]),
  ];
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, ...context.env, ...broker.env },
      signal: context.signal,
    });
    // What the client prints goes through the one redactor of what the tool writes.
    const out = redactedLines((text) => context.stdout.write(text));
    const err = redactedLines((text) => context.stderr.write(text));
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      out.flush();
      err.flush();
      resolve(code);
    });
  }).catch((error: unknown) => {
    if ((error as { name?: string }).name === "AbortError") return null;
    throw error;
  });
  if (code === 0) return 0;
  context.stderr.write(
    `assopay contracts publish: the Pact client exited with ${code ?? "a signal"}; nothing is known to be published\n`,
  );
  return 1;
}

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
    const flags = parseFlags("contracts", context.argv, "at= timeline= out= check force");
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
