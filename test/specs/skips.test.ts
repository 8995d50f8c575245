import { describe, expect, it } from "vitest";
import type { IsoDay } from "../../core/dates.js";
import { CHECK_GROUPS } from "../../specs/runner/types.js";
import { byId, problems, verifySandbox } from "./support/harness.js";

const AT = "2025-04-01" as IsoDay;

describe("checks that need what the target does not offer are skipped with the reason, never passed", () => {
  it("without a state URL", async () => {
    const report = await verifySandbox(AT, { extra: { stateUrl: undefined, only: [...CHECK_GROUPS] } });
    expect(problems(report)).toEqual([]);
    const needStates = [
      "rights/order-detail-exposes-files",
      "rights/file-needs-organization-admin",
      "notifications/signature",
      "notifications/payload-schema",
      "checkout/window-15-minutes",
      "checkout/unlimited-retries",
      "checkout/back-url",
      "checkout/associations-verification",
      "pact/verify",
    ];
    for (const id of needStates) {
      expect(byId(report, id), id).toMatchObject({
        verdict: "skip",
        reason: expect.stringMatching(/provider states|state-url/),
      });
    }
    expect(byId(report, "schemas/resources")?.reason).toMatch(
      /skipped \(order detail: the target offers no provider states/,
    );
    expect(byId(report, "pagination/end-is-empty-array")?.verdict).toBe("pass");
    expect(byId(report, "public-form/custom-fields-and-options")?.reason).toMatch(/on form /);
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
