import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import type { HttpMethod } from "../../contracts/index.js";
import { runnableEntry } from "../../core/compiled.js";
import { AssopayError } from "../../core/errors.js";
import { packageRoot } from "../../core/paths.js";
import { runCommand } from "../../core/run-command.js";
import type { CheckContext } from "../runner/context.js";
import type { CheckResult, Evidence } from "../runner/types.js";
import { fail } from "../runner/verdicts.js";
import { certificateEnv, childUrls } from "./cert-store.js";
import type { PactChildConfig } from "./child-protocol.js";
import type { PactFile, PactInteraction } from "./pact-files.js";
import { startRetryingForwarder } from "./retrying-forwarder.js";

const TIMEOUT_MS = 180_000;
const MAX_OUTPUT = 512 * 1024;

/**
 * Runs `pact-child` on a config file (compiled, or through tsx: see `runnableEntry`), `env` added to the
 * process's environment (see `certificateEnv`): its output, stdout and stderr line by line, and its end.
 */
async function runPactChild(configFile: string, signal: AbortSignal, env: Record<string, string>) {
  const entry = runnableEntry(import.meta.url, "pact-child");
  const args = entry.tsx ? ["--import", "tsx", entry.file, configFile] : [entry.file, configFile];
  let output = "";
  const run = runCommand(
    { command: process.execPath, args },
    {
      env: { ...process.env, ...env, NO_COLOR: "1", FORCE_COLOR: "0" },
      cwd: packageRoot(),
      timeoutMs: TIMEOUT_MS,
      onLine: (line) => {
        if (output.length < MAX_OUTPUT) output += `${line}\n`;
      },
      signal,
    },
  );
  const end = await run.done;
  return { code: end.exitCode, output, timedOut: end.stoppedBy === "time-limit" };
}

/** The failure section of the verifier's output, a line each. */
function failureLines(output: string): string[] {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the verifier colours its output with ANSI escapes
  const plain = output.replace(/\x1b\[[0-9;]*m/g, "");
  const start = plain.search(/^Failures:/m);
  const from = start === -1 ? plain : plain.slice(start);
  const end = from.search(/^There (?:were|was) \d+ pact failures?/m);
  const text = end === -1 ? from : from.slice(0, end);
  return text
    .split("\n")
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== "")
    .slice(0, 30);
}

/** The path an interaction was sent to, its provider-state values filled in, when known. */
export type PathOf = (interaction: PactInteraction) => string | undefined;

function failureEvidence(ctx: CheckContext, pact: PactFile, output: string, pathOf?: PathOf): Evidence {
  const lines = failureLines(output);
  const headers = lines.filter((line) => /^\d+\) Verifying a pact between /.test(line));
  const failed = pact.interactions.find((i) =>
    headers.some((line) => line.endsWith(` - ${i.description}`) || line.includes(` - ${i.description} - `)),
  );
  const request = failed?.request;
  const path = (failed && pathOf?.(failed)) ?? request?.path;
  return {
    request: {
      method: (request?.method ?? "GET").toUpperCase() as HttpMethod,
      url: path ? `${ctx.options.target}${path}` : `${ctx.options.target} (${basename(pact.file)})`,
    },
    diagnostics: [
      ...(failed ? [`first failing interaction: "${failed.description}" (${basename(pact.file)})`] : []),
      ...lines,
    ],
  };
}

/** What a verifier run is given beside what verify's options say (the target, its API root, the time limit). */
export type ChildSource = Omit<PactChildConfig, "pactFile" | "providerBaseUrl" | "apiRoot" | "timeoutMs">;

/**
 * Runs the child on a broker's pacts, or on a local file's `kept` interactions: the verdict of a failed
 * run (undefined when every interaction held) and the verifier's output.
 */
export async function runChild(
  ctx: CheckContext,
  source: ChildSource,
  label: string,
  count: string,
  local?: { pact: PactFile; kept: readonly PactInteraction[]; pathOf: PathOf | undefined },
): Promise<{ failed: CheckResult | undefined; output: string }> {
  const dir = mkdtempSync(join(tmpdir(), "assopay-pact-"));
  // The verifier asks the target (and its state URL) through forwarders of verify's client, which wait
  // out a 429 as verify's own requests do: a rate limit never fails an interaction.
  const fronts = await Promise.all(
    [ctx.options.target, source.stateUrl].map((url) => startRetryingForwarder(ctx.http, url)),
  );
  try {
    const [provider, states] = fronts;
    const pactFile = local && join(dir, basename(local.pact.file));
    if (local && pactFile)
      writeFileSync(pactFile, JSON.stringify({ ...local.pact.raw, interactions: local.kept }));
    const config: PactChildConfig = {
      ...source,
      pactFile,
      providerBaseUrl: provider?.url ?? "",
      apiRoot: ctx.options.apiRoot,
      stateUrl: `${states?.url}/`,
      timeoutMs: ctx.options.requestTimeoutMs,
    };
    // Without an extension, so that no pact file (`*.json`) written beside it takes its name.
    const configFile = join(dir, "config");
    writeFileSync(configFile, JSON.stringify(config));
    ctx.progress.update("pact", `verifying ${count} interactions of ${label}`);
    const env = certificateEnv(childUrls(config), process.env, dir);
    const outcome = await runPactChild(configFile, ctx.signal, env);
    ctx.progress.done();
    const evidence = (): Evidence =>
      local
        ? failureEvidence(ctx, local.pact, outcome.output, local.pathOf)
        : {
            request: { method: "GET", url: `${ctx.options.target} (${label})` },
            diagnostics: failureLines(outcome.output),
          };
    const output = outcome.output;
    if (outcome.timedOut)
      return {
        failed: fail(`Pact's verifier did not finish within ${TIMEOUT_MS / 1000} s`, evidence()),
        output,
      };
    // A broker the verifier could not read pacts from (nothing listening, a refusal) judged nothing: it
    // is the run's error, as an unusable flag is (exit 2), never "1 of the interactions failed".
    const unread = source.broker && failureLines(output).find((line) => line.includes("Failed to load pact"));
    if (unread) {
      throw new AssopayError(
        "usage",
        `--broker-url ${source.broker?.url}: Pact's verifier could not load pacts from the broker: ${unread.replace(/^\d+\) /, "")}`,
        {
          hint: "check --broker-url (or PACT_BROKER_BASE_URL), that the broker answers there, and PACT_BROKER_TOKEN if it needs one",
        },
      );
    }
    if (outcome.code !== 0) {
      const failed = /There (?:were|was) (\d+) pact failures?/.exec(outcome.output)?.[1];
      return {
        failed: fail(
          `${failed ?? "some"} of ${count} interactions of ${label} failed Pact verification`,
          evidence(),
        ),
        output,
      };
    }
    return { failed: undefined, output };
  } finally {
    await Promise.all(fronts.map((front) => front.close()));
    rmSync(dir, { recursive: true, force: true });
  }
}
