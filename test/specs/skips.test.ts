import { describe, expect, it } from "vitest";
import type { IsoDay } from "../../core/dates.js";
import { CHECK_GROUPS } from "../../specs/runner/types.js";
import { byId, problems, verifySandbox } from "./support/harness.js";

const AT = "2025-04-01" as IsoDay;

describe("checks that need what the target does not offer are skipped with the reason, never passed", () => {
  it("without a state URL: only what needs a clock, or an unverified association, is left out", async () => {
    const report = await verifySandbox(AT, { extra: { stateUrl: undefined, only: [...CHECK_GROUPS] } });
    expect(problems(report)).toEqual([]);
    expect(byId(report, "checkout/window-15-minutes")).toMatchObject({
      verdict: "skip",
      reason: expect.stringMatching(/movable clock.*--state-url/),
    });
    // Pact's verifier gets verify's own state endpoint, answering from what the target's API gave.
    expect(byId(report, "pact/verify")).toMatchObject({
      verdict: "pass",
      reason: expect.stringMatching(/^\d+ interactions verified without provider states .*; \d+ skipped: /),
    });
    expect(byId(report, "checkout/associations-verification")).toMatchObject({
      verdict: "pass",
      reason: expect.stringMatching(/1 skipped \(a newly registered association: .*--unverified-org/),
    });
    for (const id of [
      "rights/order-detail-exposes-files",
      "rights/file-needs-organization-admin",
      "notifications/signature",
      "notifications/payload-schema",
      "checkout/unlimited-retries",
      "checkout/back-url",
    ]) {
      expect(byId(report, id)?.verdict, id).toBe("pass");
    }
    expect(byId(report, "rights/order-detail-exposes-files")?.reason).toMatch(/found among the orders of /);
    expect(byId(report, "notifications/signature")?.reason).toMatch(
      /a checkout paid through the hosted page/,
    );
    // The sandbox lists its forms, so a form without orders is found there: nothing of it is skipped.
    expect(byId(report, "public-form/custom-fields-and-options")).toMatchObject({
      verdict: "pass",
      reason: expect.stringMatching(/public forms judged/),
    });
    expect(byId(report, "public-form/custom-fields-and-options")?.reason).not.toMatch(/skipped/);
  });

  it("without admin credentials", async () => {
    const report = await verifySandbox(AT, { extra: { admin: undefined, only: ["rights"] } });
    expect(problems(report)).toEqual([]);
    for (const id of ["rights/order-detail-exposes-files", "rights/file-needs-organization-admin"]) {
      expect(byId(report, id), id).toMatchObject({
        verdict: "skip",
        reason: expect.stringMatching(/no organization_admin client/),
      });
    }
    expect(byId(report, "rights/auth-tokens")).toMatchObject({
      verdict: "pass",
      reason: expect.stringMatching(/1 skipped/),
    });
  });
});
