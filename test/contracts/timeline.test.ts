import { describe, expect, it } from "vitest";
import { expectedCounts, loadContract } from "../../contracts/index.js";
import type { IsoDay } from "../../core/dates.js";

const contract = loadContract();
const { timeline, routes } = contract;
const day = (text: string) => text as IsoDay;
const formItems = routes.byId("v5.form-items");
const v3Payments = routes.byId("v3.org-payments");
const publicForm = routes.byId("v5.public-form");
const checkout = routes.byId("v5.checkout-create");

describe("the timeline answers on both sides of every date", () => {
  it.each([
    ["2024-12-15", "always-real", false],
    ["2024-12-16", "default-true", true],
    ["2025-03-14", "default-true", true],
    ["2025-03-15", "default-false", true],
    ["2025-05-04", "default-false", true],
    ["2025-05-05", "absent", false],
    ["2026-11-22", "absent", false],
  ] as const)("count deprecation at %s: %s (withCount parameter: %s)", (date, mode, param) => {
    const rules = timeline.datedRulesAt(formItems, day(date));
    expect(rules.countMode).toBe(mode);
    expect(rules.withCountParam).toBe(param);
    expect(timeline.datedRulesAt(v3Payments, day(date)).countMode).toBe(mode);
  });

  it.each([
    ["2025-06-29", true],
    ["2025-06-30", false],
    ["2026-01-01", false],
  ] as const)("v3 served at %s: %s, v5 always served", (date, served) => {
    expect(timeline.datedRulesAt(v3Payments, day(date)).served).toBe(served);
    for (const route of routes.all.filter((r) => r.version !== "v3")) {
      expect(timeline.datedRulesAt(route, day(date)).served).toBe(true);
    }
  });

  it.each([
    ["2025-05-31", false],
    ["2025-06-01", true],
  ] as const)("new associations need verification at %s: %s", (date, needed) => {
    expect(timeline.datedRulesAt(checkout, day(date)).newAssociationsNeedVerification).toBe(needed);
    expect(timeline.inForce("new-association-verification", day(date))).toBe(needed);
  });

  it("routes without the count deprecation are untouched by it", () => {
    expect(timeline.datedRulesAt(publicForm, day("2026-01-01")).countMode).toBe("not-applicable");
    expect(timeline.datedRulesAt(publicForm, day("2026-01-01")).inForce).toEqual([]);
  });

  it("lists the entries in force for a route, with their status", () => {
    const inForce = timeline
      .datedRulesAt(formItems, day("2025-06-15"))
      .inForce.map((e) => `${e.id}:${e.status}`);
    expect(inForce).toEqual([
      "withcount-introduced:done",
      "withcount-default-false:done",
      "count-fields-removed:planned",
    ]);
  });
});

describe("expected counts for one request", () => {
  it.each([
    ["2024-12-15", undefined, "real"],
    ["2024-12-15", false, "real"],
    ["2025-01-15", undefined, "real"],
    ["2025-01-15", false, "minus-one"],
    ["2025-04-01", undefined, "minus-one"],
    ["2025-04-01", false, "minus-one"],
    ["2025-04-01", true, "real"],
    ["2025-06-15", true, "absent"],
    ["2025-06-15", undefined, "absent"],
  ] as const)("at %s with withCount=%s: %s", (date, withCount, expected) => {
    expect(expectedCounts(timeline.datedRulesAt(formItems, day(date)), withCount)).toBe(expected);
  });
});
