import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { faults } from "../../sandbox/faults.js";
import { contract, day, harness, type Receiver, receiver } from "./helpers.js";
import { probes } from "./probes.js";

async function brokenRules(
  fault: (typeof faults)[number]["name"] | undefined,
  hook: Receiver,
): Promise<string[]> {
  const h = await harness({
    at: day("2025-04-01"),
    entries: 45,
    ...(fault ? { fault } : {}),
    notificationRetryDelaysMs: [20],
  });
  try {
    const broken: string[] = [];
    for (const [rule, probe] of Object.entries(probes)) {
      if ((await probe({ h, hook })) === "broken") broken.push(rule);
    }
    return broken;
  } finally {
    await h.close();
  }
}

describe("sandbox faults", () => {
  let hook: Receiver;
  beforeAll(async () => {
    hook = await receiver();
  });
  afterAll(() => hook.close());

  it("name a rule of contracts/rules.yaml each, and every rule has a probe", () => {
    const ids = contract().rules.map((r) => r.id);
    for (const fault of faults) expect(ids, fault.name).toContain(fault.rule);
    // pact.interactions restates the other rules as Pact files: verify's Pact check covers it (test/specs).
    expect(Object.keys(probes).sort()).toEqual(ids.filter((id) => id !== "pact.interactions").sort());
    expect(new Set(faults.map((f) => f.name)).size).toBe(faults.length);
  });

  it("the clean sandbox breaks no rule", async () => {
    expect(await brokenRules(undefined, hook)).toEqual([]);
  });

  it.each(faults.map((f) => [f.name, f.rule] as const))(
    "--fault %s breaks exactly %s",
    async (name, rule) => {
      expect(await brokenRules(name, hook)).toEqual([rule]);
    },
  );
});
