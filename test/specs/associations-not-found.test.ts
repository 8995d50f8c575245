import { afterEach, describe, expect, it } from "vitest";
import type { IsoDay } from "../../core/dates.js";
import { type FaultName, type RunningSandbox, startSandbox } from "../../sandbox/index.js";
import { allChecks } from "../../specs/index.js";
import { resolveOptions } from "../../specs/runner/options.js";
import { runVerify } from "../../specs/runner/run.js";
import { byId, contract, sandboxInput } from "./support/harness.js";

const AT = "2025-07-01" as IsoDay;
const CHECK = "checkout/associations-verification";
let running: RunningSandbox | undefined;

afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function judgeAssociation(unverifiedOrg: string, add: boolean, fault?: FaultName) {
  running = await startSandbox({
    port: 0,
    at: AT,
    entries: 20,
    contract: contract(),
    hooks: false,
    ...(fault ? { fault } : {}),
  });
  if (add) {
    running.core.store.addOrganization({
      slug: unverifiedOrg,
      name: "Toute nouvelle association",
      type: "Association1901",
      registeredOn: AT,
      verified: false,
    });
  }
  const input = sandboxInput(running, AT, { stateUrl: undefined, only: [CHECK], unverifiedOrg });
  return byId(await runVerify(resolveOptions(input), allChecks(), { contract: contract() }), CHECK);
}

describe("checkout/associations-verification and an association the target does not know", () => {
  it("skips, saying the organization was not found, instead of passing on a 404 (docs/bad-inputs.md)", async () => {
    // Before: the checkout's 404 for a slug nobody registered counted as "refused", so the rule passed.
    const result = await judgeAssociation("association-qui-n-existe-pas", false);
    expect(result).toMatchObject({
      verdict: "skip",
      reason: expect.stringMatching(
        /^a newly registered association \(association-qui-n-existe-pas\) \(--unverified-org\): not found: the target knows no organization "association-qui-n-existe-pas".*404/,
      ),
    });
  });

  it("judges an association that exists: refused passes, accepted fails", async () => {
    expect(await judgeAssociation("toute-nouvelle-association", true)).toMatchObject({
      verdict: "pass",
      reason: expect.stringMatching(/^2 associations judged/),
    });
    await running?.close();
    expect(await judgeAssociation("toute-nouvelle-association", true, "unverified-payments")).toMatchObject({
      verdict: "fail",
      reason: expect.stringMatching(/toute-nouvelle-association.*was accepted/),
    });
  });
});
