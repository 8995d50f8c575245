import { type Contract, loadContract } from "../../../contracts/index.js";
import type { IsoDay } from "../../../core/dates.js";
import type { Finding } from "../../../report/index.js";
import {
  type FaultName,
  type RunningSandbox,
  type SandboxData,
  startSandbox,
} from "../../../sandbox/index.js";
import { allChecks } from "../../../specs/index.js";
import { resolveOptions, type VerifyOptionsInput } from "../../../specs/runner/options.js";
import { runVerify } from "../../../specs/runner/run.js";
import { CHECK_GROUPS, type RunReport } from "../../../specs/runner/types.js";

/** Every group but Pact (its verifier runs in a child process and has its own tests). */
export const GROUPS_BUT_PACT = CHECK_GROUPS.filter((g) => g !== "pact");

/** The dates on both sides of every timeline entry. */
export const DATES = ["2024-12-01", "2025-01-15", "2025-04-01", "2025-06-15", "2026-01-01"] as IsoDay[];

let shared: Contract | undefined;
/** One contract per test file (loading compiles the schemas). */
export function contract(): Contract {
  shared ??= loadContract();
  return shared;
}

export interface SandboxRun {
  report: RunReport;
  sandbox: RunningSandbox;
}

/** Options to verify a running sandbox, optionally through another URL (a proxy in front of it). */
export function sandboxInput(
  sandbox: RunningSandbox,
  at: IsoDay,
  extra: Partial<VerifyOptionsInput> = {},
): VerifyOptionsInput {
  return {
    target: sandbox.url,
    embedded: true,
    at,
    reader: sandbox.credentials.reader,
    admin: sandbox.credentials.admin,
    organizationSlug: sandbox.credentials.organizationSlug,
    formType: sandbox.credentials.formType,
    formSlug: sandbox.credentials.formSlug,
    stateUrl: sandbox.stateUrl,
    eventWaitMs: 2_000,
    only: GROUPS_BUT_PACT,
    // Every legal crawl of the sandbox's small data (50 entries a form) is shorter than this: the clean
    // sandbox passes every check at every date under it (clean-sandbox.test.ts). A listing that never ends
    // is judged at 30 pages rather than 100, which took the never-ending fault's runs 7.5 s each.
    maxPages: 30,
    notificationTimeoutMs: 3_000,
    ...extra,
  };
}

/** Starts a sandbox (small data), runs verify against it, closes it. */
export async function verifySandbox(
  at: IsoDay,
  options: {
    fault?: FaultName;
    /** False plays a provider without our hooks: no state URL, no clock, no admin endpoints. */
    hooks?: boolean;
    /** Data of the sandbox's own (a data file's) instead of the ready-made data's 50 entries. */
    data?: SandboxData;
    extra?: Partial<VerifyOptionsInput>;
    through?: (sandbox: RunningSandbox) => Promise<{ url: string; close(): Promise<void> }>;
  } = {},
): Promise<RunReport> {
  const sandbox = await startSandbox({
    port: 0,
    at,
    entries: 50,
    contract: contract(),
    ...(options.fault ? { fault: options.fault } : {}),
    ...(options.data ? { data: options.data } : {}),
    hooks: options.hooks ?? true,
  });
  const front = options.through ? await options.through(sandbox) : undefined;
  try {
    const input = sandboxInput(sandbox, at, { ...(front ? { target: front.url } : {}), ...options.extra });
    return await runVerify(resolveOptions(input), allChecks(), { contract: contract() });
  } finally {
    await front?.close();
    await sandbox.close();
  }
}

/** `id[verdict]: reason` of every outcome that is not a pass or a skip. */
export function problems(report: RunReport): string[] {
  return report.outcomes
    .filter((o) => o.verdict === "fail" || o.verdict === "error" || o.verdict === "warn")
    .map(
      (o) =>
        `${o.id}[${o.verdict}]: ${o.reason ?? ""}${o.evidence?.diagnostics ? ` ${o.evidence.diagnostics.slice(0, 3).join(" / ")}` : ""}`,
    );
}

/** The checks among `problems` lines (each starts with its check's id), each once, sorted. */
export function checksIn(found: readonly string[]): string[] {
  return [...new Set(found.map((p) => p.slice(0, p.indexOf("["))))].sort();
}

export function byId(report: RunReport, id: string): Finding | undefined {
  return report.outcomes.find((o) => o.id === id);
}
