import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../../core/paths.js";
import { allChecks } from "../../specs/index.js";
import {
  FAULT_DATES,
  faultCases,
  LEGAL_CASES,
  LEGAL_DATES,
  UNDATED_FAULT_DATES,
} from "./support/coverage-plan.js";
import { contract, GROUPS_BUT_PACT } from "./support/harness.js";

/**
 * What the suite proves per provider rule, counted from the lists the fault and legal-variant tests run
 * (`support/coverage-plan.ts`), against the counts of 2026-11-24. A count may grow; one that shrinks, or
 * a rule that loses its fault, fails here: the suite would prove less than it did. A new rule needs no
 * entry here: it must have a fault (or be in `WITHOUT_FAULT`), and its group says its dates.
 *
 * Faults: verify runs against the sandbox with one fault, one test per fault, at the dates its rule depends
 * on (`faultCases`): the faults per rule, and, for a rule the timeline dates, the dates each fault runs at.
 */
const FAULTS_PER_RULE_AT_LEAST: Readonly<Record<string, number>> = {
  "pagination.complete": 3,
  "counts.real-with-withcount": 2,
  "rights.file-needs-organization-admin": 2,
  "notifications.signature": 2,
};

/** The rules with a fault, at the least (each has one at the least; those above more). */
const FAULTED_RULES_AT_LEAST = 33;

/** Groups of rules the timeline dates: each of their faults runs on both sides of the entries (FAULT_DATES). */
const DATED_GROUPS = ["counts", "versions", "associations"];

/** The faults in all (some rules have more than one). */
const FAULTS_AT_LEAST = 34;

/**
 * Rules no sandbox fault breaks: the result array (its failing case is a unit test,
 * test/specs/crawler.test.ts) and the Pact check (it restates the other rules and has its own tests).
 */
const WITHOUT_FAULT = ["pagination.result-array", "pact.interactions"];

/** Legal variants: each case verifies the sandbox whole through a varying proxy, at each date. */
const LEGAL_RUNS_PER_RULE_AT_LEAST = 8;

describe("what the fault and legal-variant tests prove, per rule", () => {
  const rules = contract().rules.map((rule) => rule.id);

  it("every rule with a fault keeps at least as many faults, one test each, at the dates its rule depends on", () => {
    const cases = faultCases(contract().timeline);
    const perRule = new Map<string, number>();
    for (const { fault } of cases) perRule.set(fault.rule, (perRule.get(fault.rule) ?? 0) + 1);
    const faulted = rules.filter((rule) => !WITHOUT_FAULT.includes(rule));
    expect(
      [...perRule.keys()].sort(),
      "each rule has a sandbox fault, or its failing case as a unit test and its id in WITHOUT_FAULT",
    ).toEqual([...faulted].sort());
    expect(faulted.length).toBeGreaterThanOrEqual(FAULTED_RULES_AT_LEAST);
    for (const rule of Object.keys(FAULTS_PER_RULE_AT_LEAST)) expect(faulted, rule).toContain(rule);
    const fewer = faulted.filter((rule) => (perRule.get(rule) ?? 0) < (FAULTS_PER_RULE_AT_LEAST[rule] ?? 1));
    expect(
      fewer.map((rule) => `${rule}: ${perRule.get(rule) ?? 0} < ${FAULTS_PER_RULE_AT_LEAST[rule] ?? 1}`),
    ).toEqual([]);
    expect(cases.length).toBeGreaterThanOrEqual(FAULTS_AT_LEAST);
    expect(new Set(cases.map((c) => c.fault.name)).size).toBe(cases.length);
    const datesOf = (rule: string) => cases.filter((c) => c.fault.rule === rule).map((c) => c.dates);
    for (const rule of faulted) {
      const expected = DATED_GROUPS.includes(rule.split(".")[0] ?? "") ? FAULT_DATES : UNDATED_FAULT_DATES;
      for (const dates of datesOf(rule)) expect(dates, rule).toEqual(expected);
    }
    // The fault test runs these very cases, one `it` each, at each case's own dates.
    const source = readFileSync(join(packageRoot(), "test", "specs", "faults.test.ts"), "utf8");
    expect(source).toMatch(/it\.each\(cases\.map\(/);
    expect(source).toMatch(/for \(const at of dates\)/);
  });

  it("every rule a check judges is judged in each legal variant at each date", () => {
    const judged = new Set(
      allChecks()
        .filter((check) => (GROUPS_BUT_PACT as readonly string[]).includes(check.group))
        .map((check) => check.rule),
    );
    const expected = rules.filter((rule) => rule !== "pact.interactions");
    expect([...judged].sort()).toEqual([...expected].sort());
    const perRule = LEGAL_CASES.length * LEGAL_DATES.length;
    expect(perRule).toBeGreaterThanOrEqual(LEGAL_RUNS_PER_RULE_AT_LEAST);
    const source = readFileSync(join(packageRoot(), "test", "specs", "legal-variants.test.ts"), "utf8");
    expect(source).toMatch(/it\.each\(LEGAL_CASES\)/);
    expect(source).toMatch(/for \(const at of LEGAL_DATES\)/);
  });
});
