import { afterEach, describe, expect, it } from "vitest";
import type { IsoDay } from "../../core/dates.js";
import type { Finding } from "../../report/index.js";
import { type FaultName, type RunningSandbox, startSandbox } from "../../sandbox/index.js";
import { allChecks } from "../../specs/index.js";
import { resolveOptions, type VerifyOptionsInput } from "../../specs/runner/options.js";
import { runVerify } from "../../specs/runner/run.js";
import { byId, contract, sandboxInput } from "./support/harness.js";
import { startTransformingProxy } from "./support/transforming-proxy.js";

let running: RunningSandbox | undefined;

afterEach(async () => {
  await running?.close();
  running = undefined;
});

/** The sandbox as a provider without our hooks: no state URL, no clock, no admin endpoints. */
async function hookless(at: IsoDay, fault?: FaultName): Promise<RunningSandbox> {
  running = await startSandbox({
    port: 0,
    at,
    entries: 50,
    contract: contract(),
    hooks: false,
    ...(fault ? { fault } : {}),
  });
  return running;
}

async function pactVerdict(
  sandbox: RunningSandbox,
  at: IsoDay,
  extra: Partial<VerifyOptionsInput> = {},
): Promise<Finding> {
  const input = sandboxInput(sandbox, at, { stateUrl: undefined, only: ["pact"], ...extra });
  const report = await runVerify(resolveOptions(input), allChecks(), { contract: contract() });
  const outcome = byId(report, "pact/verify");
  if (!outcome) throw new Error("no pact/verify outcome");
  return outcome;
}

const verified = (outcome: Finding) => Number(/^(\d+) interactions verified/.exec(outcome.reason ?? "")?.[1]);

describe("pact/verify against a provider without provider states", () => {
  it("verifies the era's interactions from values found through the target's API, skipping the rest with reasons", async () => {
    const at = "2025-04-01" as IsoDay;
    const outcome = await pactVerdict(await hookless(at), at);
    expect(outcome.verdict, outcome.reason).toBe("pass");
    // Measured: 67 of the era's 78 (49 of 61 after the v3 switch-off): tokens, ids, the empty form, an
    // order with a file, a checkout intent, the Order and Payment notifications, all found without states.
    expect(verified(outcome), outcome.reason).toBeGreaterThanOrEqual(65);
    expect(outcome.reason).toContain("without provider states");
    expect(outcome.reason).toContain(`the service date is the target's own, judged as of ${at}`);
    expect(outcome.reason).toMatch(
      /"an API client": .*--state-url\) \(1: "token: client_credentials grant"\)/,
    );
    expect(outcome.reason).toMatch(/refund or cancel a real order .*\(2: "payment refund/);
    expect(outcome.reason).toMatch(/replace the partner's notification URLs .*\(2: /);
    // Every skipped interaction sits under a reason.
    const skipped = Number(/(\d+) skipped: /.exec(outcome.reason ?? "")?.[1]);
    const listed = [...(outcome.reason ?? "").matchAll(/\((\d+): "/g)].reduce((n, m) => n + Number(m[1]), 0);
    expect(skipped).toBeGreaterThan(0);
    expect(listed).toBe(skipped);
  });

  it("skips, never fails, what it cannot answer: no admin client, no newly registered association", async () => {
    const at = "2025-07-01" as IsoDay;
    const outcome = await pactVerdict(await hookless(at), at, { admin: undefined });
    expect(outcome.verdict, outcome.reason).toBe("pass");
    expect(outcome.reason).toMatch(
      /"an access token": no organization_admin client was given \(--admin-client-id, --admin-client-secret\) \(4: "order detail: the URL of each attached file", "attached file: downloads with an organization_admin token", "item detail/,
    );
    expect(outcome.reason).toMatch(
      /no newly registered association was named \(--unverified-org\) \(1: "checkout intent: refused/,
    );
  });

  it("runs an interaction once a flag answers its state (--unverified-org)", async () => {
    const at = "2025-07-01" as IsoDay;
    const sandbox = await hookless(at);
    const without = await pactVerdict(sandbox, at);
    sandbox.core.store.addOrganization({
      slug: "toute-nouvelle-association",
      name: "Toute nouvelle association",
      type: "Association1901",
      registeredOn: at,
      verified: false,
    });
    const named = await pactVerdict(sandbox, at, { unverifiedOrg: "toute-nouvelle-association" });
    expect(named.verdict, named.reason).toBe("pass");
    expect(named.reason).not.toMatch(/--unverified-org/);
    expect(verified(named)).toBe(verified(without) + 1);
  });

  it("walks the listings as the pact's requests do, without --page-size (one page of 100 would give no token)", async () => {
    const at = "2025-04-01" as IsoDay;
    const outcome = await pactVerdict(await hookless(at), at, { pageSize: 100 });
    expect(outcome.verdict, outcome.reason).toBe("pass");
    expect(outcome.reason).not.toMatch(/PageToken/);
    expect(verified(outcome), outcome.reason).toBeGreaterThanOrEqual(65);
  });

  it("passes the legal variations of a listing (odd tokens, a token on the final page, short pages, gzip)", async () => {
    const at = "2025-04-01" as IsoDay;
    const sandbox = await hookless(at);
    const proxy = await startTransformingProxy(sandbox.url, contract(), {
      weirdTokens: true,
      finalToken: "fresh",
      noTokenOnLastPage: true,
      unknownFields: true,
      reoffsetDates: true,
      gzip: true,
      varyPageSizes: true,
    });
    try {
      const outcome = await pactVerdict(sandbox, at, { target: proxy.url });
      expect(outcome.verdict, outcome.reason).toBe("pass");
      // No token on the last non-empty page: nothing leads to an empty page, so those are left out.
      expect(outcome.reason).toMatch(
        /no finalPageToken: v5.form-items ends on a non-empty page without a token/,
      );
    } finally {
      await proxy.close();
    }
  });

  it("fails on a broken listing, its evidence naming the failing interaction and the request sent", async () => {
    const at = "2025-04-01" as IsoDay;
    const sandbox = await hookless(at, "token-mangled");
    const outcome = await pactVerdict(sandbox, at);
    expect(outcome.verdict, outcome.reason).toBe("fail");
    expect(outcome.evidence?.diagnostics?.[0]).toMatch(
      /^first failing interaction: "v[35]\.[a-z-]+: next page, the continuation token sent back as received/,
    );
    expect(outcome.evidence?.request?.url).toContain(
      `/organizations/${sandbox.credentials.organizationSlug}/`,
    );
  });

  it("fails on a broken response shape, naming the interaction and the field", async () => {
    const at = "2025-04-01" as IsoDay;
    const outcome = await pactVerdict(await hookless(at, "bad-dates"), at);
    expect(outcome.verdict, outcome.reason).toBe("fail");
    expect(outcome.evidence?.diagnostics?.[0]).toMatch(/^first failing interaction: "/);
    expect(outcome.evidence?.diagnostics?.join("\n")).toMatch(
      /\.date -> Expected '\d{4}-\d{2}-\d{2}T[\d:]+' to match/,
    );
  });
});
