import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { IsoDay } from "../../core/dates.js";
import { contractsDir } from "../../core/paths.js";
import { pactFilesAt } from "../../specs/pact/pact-files.js";
import { byId, verifySandbox } from "./support/harness.js";
import { writePact } from "./support/pact-fixture.js";

const AT = "2025-04-01" as IsoDay;

describe("the Pact check", () => {
  it("verifies HTTP and message interactions with Pact's verifier through the state URL", async () => {
    const report = await verifySandbox(AT, {
      extra: { only: ["pact"], pactDir: writePact({ partnerStatus: 200 }) },
    });
    const outcome = byId(report, "pact/verify");
    expect(outcome?.verdict, outcome?.reason).toBe("pass");
    expect(outcome?.reason).toMatch(/^2 interactions verified/);
  });

  it("fails with the verifier's findings as evidence when an interaction does not hold", async () => {
    const report = await verifySandbox(AT, {
      extra: { only: ["pact"], pactDir: writePact({ partnerStatus: 418 }) },
    });
    const outcome = byId(report, "pact/verify");
    expect(outcome?.verdict).toBe("fail");
    expect(outcome?.reason).toMatch(/1 of 2 interactions/);
    expect(outcome?.evidence?.request?.url).toMatch(/\/v5\/partners\/me$/);
    expect(outcome?.evidence?.diagnostics?.join("\n")).toMatch(/expected 418 but was 200/);
  });

  it("skips with a reason without Pact files; without a state URL it answers the states itself", async () => {
    const empty = mkdtempSync(join(tmpdir(), "assopay-no-pacts-"));
    const none = await verifySandbox(AT, { extra: { only: ["pact"], pactDir: empty } });
    expect(byId(none, "pact/verify")).toMatchObject({
      verdict: "skip",
      reason: expect.stringMatching(/no Pact files/),
    });
    const stateless = await verifySandbox(AT, {
      extra: { only: ["pact"], stateUrl: undefined, pactDir: writePact({ partnerStatus: 200 }) },
    });
    expect(byId(stateless, "pact/verify")).toMatchObject({
      verdict: "pass",
      // The sandbox's partner has no notification URL (verify removes its receiver's afterwards), so
      // the interaction needing one is skipped with that reason, not failed.
      reason: expect.stringMatching(
        /^1 interactions verified without provider states .*1 skipped: "a partner with a notification URL": partner information lists no notification URL/,
      ),
    });
  });

  it("picks the Pact file of the date: the latest as-of on or before it", () => {
    const files = (at: string) => pactFilesAt(join(contractsDir(), "pacts"), at as IsoDay).map((p) => p.asOf);
    const all = pactFilesAt(join(contractsDir(), "pacts"), "2099-01-01" as IsoDay);
    if (all.length === 0) return;
    expect(files("2025-04-01")).toEqual(["2025-03-15"]);
    expect(files("2025-06-30")).toEqual(["2025-06-30"]);
    expect(files("2020-01-01")).toEqual(["2024-12-15"]);
  });
});
