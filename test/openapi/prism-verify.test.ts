import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DOCUMENT_ALLOWS } from "../../contracts/document-allows.js";
import { contractsDir } from "../../core/paths.js";
import { allChecks } from "../../specs/index.js";
import { resolveOptions } from "../../specs/runner/options.js";
import { runVerify } from "../../specs/runner/run.js";
import { exitCodeOf, type RunReport } from "../../specs/runner/types.js";
import { contract, day } from "../sandbox/helpers.js";
import { type RunningPrism, startPrism } from "./prism.js";

// A mock built from the provider's published document, with no shim: Prism 5.14.2 serves
// contracts/reference/openapi-v5.json at its root (no /v5) and has no token endpoint.
const DOCUMENT = join(contractsDir(), "reference", "openapi-v5.json");

/** verify, in-process, against the mock: its API at the root, any bearer token (Prism checks only that one is sent). */
function verifyMock(prism: RunningPrism): Promise<RunReport> {
  const options = resolveOptions({
    target: prism.url,
    apiRoot: "/",
    auth: { kind: "bearer", reader: "mock-token", admin: "mock-admin-token" },
    at: day("2026-01-15"),
    organizationSlug: "mock-org",
    formType: "Event",
    formSlug: "mock-form",
    eventWaitMs: 2_000,
    notificationTimeoutMs: 2_000,
    maxPages: 30,
  });
  return runVerify(options, allChecks(), { contract: contract() });
}

/** What every run against the mock must show: a verdict (exit 1), no error, readable failures. */
function expectReadableVerdict(report: RunReport): void {
  expect(exitCodeOf(report.summary)).toBe(1);
  expect(report.outcomes.filter((o) => o.verdict === "error").map((o) => `${o.id}: ${o.reason}`)).toEqual([]);
  for (const outcome of report.outcomes.filter((o) => o.verdict === "fail")) {
    const reason = outcome.reason ?? "";
    // A sentence, not a bare code: words, and no system error code standing alone.
    expect(reason.split(/\s+/).length, `${outcome.id}: ${reason}`).toBeGreaterThan(5);
    expect(reason, outcome.id).not.toMatch(/^\s*(E[A-Z_]+|ERR_[A-Z_]+)\b/);
    expect(outcome.evidence?.request ?? outcome.evidence?.crawl, `${outcome.id} has evidence`).toBeDefined();
  }
}

/** Every sentence of the report: reasons and evidence diagnostics. */
const sentences = (report: RunReport) =>
  report.outcomes.flatMap((o) => [o.reason ?? "", ...(o.evidence?.diagnostics ?? [])]);

describe("verify against Prism mocking the provider's document (no shim)", () => {
  let prism: RunningPrism;

  describe("static examples", () => {
    beforeAll(async () => {
      prism = await startPrism(["mock", DOCUMENT]);
    });
    afterAll(async () => {
      await prism?.close();
    });

    it("runs to a verdict, fails pagination on the token echo, and names the document's own divergences", async () => {
      const report = await verifyMock(prism);
      expectReadableVerdict(report);
      // Prism does not paginate: the token it gives leads back to the same page.
      const echoed = report.outcomes.find((o) => o.id === "pagination/token-echoed");
      expect(echoed?.verdict, echoed?.reason).toBe("fail");
      expect(echoed?.reason).toMatch(/the token did not lead to the next page/);
      // The document's example dates carry no fraction, which the document allows and the seed does not.
      const dated = sentences(report).filter((s) => /fractional-second part/.test(s));
      expect(dated.length).toBeGreaterThan(0);
      for (const sentence of dated) expect(sentence).toContain(DOCUMENT_ALLOWS);
      // The checkout's redirectUrl "string" is followed by no one: the checks that needed it fail, saying so.
      const backUrl = report.outcomes.find((o) => o.id === "checkout/back-url");
      expect(backUrl?.verdict).toBe("fail");
      expect(backUrl?.reason).toMatch(
        /^the target gave "string" \(from the answer to POST .*checkout-intents\)/,
      );
      expect(backUrl?.evidence?.request?.url).toMatch(/\/organizations\/mock-org\/checkout-intents$/);
    });
  });

  describe("dynamic examples", () => {
    beforeAll(async () => {
      prism = await startPrism(["mock", DOCUMENT, "--dynamic", "--seed", "7"]);
    });
    afterAll(async () => {
      await prism?.close();
    });

    it("runs to a verdict and names the fields the document declares nullable as its divergences", async () => {
      const report = await verifyMock(prism);
      expectReadableVerdict(report);
      const nulls = sentences(report).filter((s) => /got null/.test(s));
      expect(nulls.length).toBeGreaterThan(0);
      for (const sentence of nulls) expect(sentence).toContain(DOCUMENT_ALLOWS);
    });
  });
});
