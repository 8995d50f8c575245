import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readPage } from "../../../contracts/index.js";
import type { IsoDay } from "../../../core/dates.js";
import { startRecorder } from "../../../proxy/index.js";
import { type FaultName, type RunningSandbox, startSandbox } from "../../../sandbox/index.js";
import { resolveRerunOptions } from "../../../specs/rerun/options.js";
import { runRerun } from "../../../specs/rerun/run.js";
import type { RunReport } from "../../../specs/runner/types.js";
import { clientToken } from "../../support/client-token.js";
import { contract } from "./harness.js";

/** Entries of the recorded form: 45 with pageSize 20 is three pages and the final empty one. */
export const ENTRIES = 45;

async function getJson(url: string, bearer: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${bearer}` } });
  const text = await response.text();
  const json = (response.headers.get("content-type") ?? "").includes("json");
  return { status: response.status, body: json ? (JSON.parse(text) as unknown) : text };
}

/**
 * What an integration does, through the recorder: tokens for both clients, a crawl of the form's orders
 * with withCount=true (pageSize 20, to the empty page), a crawl of its items without withCount, the
 * detail of an order that has an attached file and the file itself (with the admin token, then refused to
 * the reader's), the organization's payments (oldest first), a call with a token the service never issued, the public form, a checkout intent
 * created and read back, and a v3 listing.
 */
async function drive(base: string, sandbox: RunningSandbox): Promise<void> {
  const { credentials: c } = sandbox;
  const reader = await clientToken(base, c.reader);
  const admin = await clientToken(base, c.admin);
  const form = `${base}/v5/organizations/${c.organizationSlug}/forms/${c.formType}/${c.formSlug}`;
  const ids: number[] = [];
  for (const [listing, extra] of [
    ["orders", "&withCount=true"],
    ["items", ""],
  ] as const) {
    let next: string | undefined;
    for (let page = 0; page < 10; page++) {
      const query = `pageSize=20${extra}${next ? `&continuationToken=${encodeURIComponent(next)}` : ""}`;
      const { body } = await getJson(`${form}/${listing}?${query}`, reader);
      const page = readPage(body, "data");
      if (!page.ok) throw new Error(`${listing}: ${page.why}`);
      if (listing === "orders") for (const id of page.ids) if (typeof id === "number") ids.push(id);
      if (page.entries.length === 0) break;
      next = page.token;
    }
  }
  for (const id of ids) {
    const { body } = await getJson(`${base}/v5/orders/${id}`, admin);
    const url = JSON.stringify(body).match(/"type":"File","answer":"([^"]+)"/)?.[1];
    if (url) {
      await getJson(`${base}${new URL(url).pathname}`, admin);
      await getJson(`${base}${new URL(url).pathname}`, reader);
      break;
    }
  }
  await getJson(`${base}/v5/organizations/${c.organizationSlug}/payments?pageSize=20&sortOrder=Asc`, reader);
  await getJson(`${base}/v5/partners/me`, "not-a-token-the-service-issued");
  await getJson(
    `${base}/v5/organizations/${c.organizationSlug}/forms/Membership/adhesion-2025/public`,
    reader,
  );
  const created = await fetch(`${base}/v5/organizations/${c.organizationSlug}/checkout-intents`, {
    method: "POST",
    headers: { authorization: `Bearer ${reader}`, "content-type": "application/json" },
    body: JSON.stringify({
      totalAmount: 1000,
      initialAmount: 1000,
      itemName: "Don",
      backUrl: "https://asso.example/back",
      errorUrl: "https://asso.example/error",
      returnUrl: "https://asso.example/ok",
      containsDonation: true,
    }),
  });
  const { id } = (await created.json()) as { id: number };
  await getJson(`${base}/v5/organizations/${c.organizationSlug}/checkout-intents/${id}`, reader);
  await getJson(
    `${base}/v3/organizations/${c.organizationSlug}/forms/${c.formType}/${c.formSlug}/items`,
    reader,
  );
}

/** A folder of its own and a session recorded in it from a sandbox at `at`. */
export async function recordSession(
  at: IsoDay,
): Promise<{ cassette: string; dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "assopay-rerun-"));
  const cassette = join(dir, "session.yaml");
  const sandbox = await startSandbox({ port: 0, at, entries: ENTRIES, contract: contract() });
  try {
    const recorder = await startRecorder({ upstream: sandbox.url, cassette, mode: "all" });
    try {
      await drive(recorder.url, sandbox);
    } finally {
      await recorder.close();
    }
  } finally {
    await sandbox.close();
  }
  return { cassette, dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

export interface TargetSetup {
  fault?: FaultName;
  /** Another seed gives other client secrets, other continuation tokens and other file ids. */
  seed?: number;
  /** Work done on the target before the rerun (e.g. a checkout intent, so ids move on). */
  prepare?: (sandbox: RunningSandbox) => Promise<void>;
  /** Something between the rerun and the sandbox (a proxy that varies the answers legally). */
  through?: (sandbox: RunningSandbox) => Promise<{ url: string; close(): Promise<void> }>;
  planned?: "fail" | "warn";
  /** Rerun without the admin client. */
  withoutAdmin?: boolean;
  /** Entries of the target's form (default: as many as recorded). */
  entries?: number;
}

/** Re-sends cassettes against a fresh sandbox at `at`, with the sandbox's own clients. */
export async function rerunAgainst(
  cassettes: string[],
  at: IsoDay,
  setup: TargetSetup = {},
): Promise<RunReport> {
  const sandbox = await startSandbox({
    port: 0,
    at,
    entries: setup.entries ?? ENTRIES,
    seed: setup.seed ?? 2,
    contract: contract(),
    ...(setup.fault ? { fault: setup.fault } : {}),
  });
  const front = setup.through ? await setup.through(sandbox) : undefined;
  try {
    await setup.prepare?.(sandbox);
    const options = resolveRerunOptions({
      cassettes,
      target: front?.url ?? sandbox.url,
      ...(setup.planned ? { planned: setup.planned } : {}),
      at,
      reader: sandbox.credentials.reader,
      ...(setup.withoutAdmin ? {} : { admin: sandbox.credentials.admin }),
    });
    return await runRerun(options, { contract: contract() });
  } finally {
    await front?.close();
    await sandbox.close();
  }
}

/** `verdict id rule: reason` of each outcome, for readable assertions. */
export function lines(report: RunReport): string[] {
  return report.outcomes.map((o) => `${o.verdict} ${o.id} [${o.rule}] ${o.reason ?? ""}`);
}
