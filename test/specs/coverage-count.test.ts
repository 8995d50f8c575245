import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../../core/paths.js";
import { allChecks } from "../../specs/index.js";
import { FAULT_CASES, LEGAL_CASES, LEGAL_DATES } from "./support/coverage-plan.js";
import { contract, GROUPS_BUT_PACT } from "./support/harness.js";

/**
 * What the suite proves per provider rule, counted from the lists the fault and legal-variant tests run
 * (`support/coverage-plan.ts`), against the counts of 2026-11-24. A count may grow; one that shrinks, or
 * a rule that loses its fault, fails here: the suite would prove less than it did.
 *
 * Faults: verify runs against the sandbox with one fault, one test per fault, at each of its dates.
 */
const FAULT_RUNS_AT_LEAST: Readonly<Record<string, number>> = {
  "schema.responses": 3,
  "pagination.end-is-empty-array": 3,
  "pagination.token-echoed": 3,
  "pagination.no-duplicates": 3,
  "pagination.complete": 3,
  "pagination.empty-page-only-at-end": 3,
  "pagination.token-until-end": 3,
  "pagination.page-size": 3,
  "counts.minus-one-without-withcount": 3,
  "counts.real-with-withcount": 3,
  "counts.absent-after-removal": 3,
  "versions.v3-switched-off": 3,
  "versions.v3-served-before-switch-off": 3,
  "versions.v5-unaffected": 3,
  "rights.order-detail-exposes-files": 3,
  "rights.file-needs-organization-admin": 6,
  "public-form.custom-fields-and-options": 3,
  "notifications.signature": 6,
  "notifications.payload-schema": 3,
  "checkout.window-15-minutes": 3,
  "checkout.unlimited-retries": 3,
  "checkout.back-url": 3,
  "associations.verification": 3,
  "auth.tokens": 3,
  "auth.before-routing": 3,
};

/** The faults per rule behind those runs (two rules have two faults each). */
const FAULTS_AT_LEAST = 27;

/**
 * Rules no sandbox fault breaks: the result array (its failing case is a unit test,
 * test/specs/crawler.test.ts) and the Pact check (it restates the other rules and has its own tests).
 */
const WITHOUT_FAULT = ["pagination.result-array", "pact.interactions"];

/** Legal variants: each case verifies the sandbox whole through a varying proxy, at each date. */
const LEGAL_RUNS_PER_RULE_AT_LEAST = 8;

describe("what the fault and legal-variant tests prove, per rule", () => {
  const rules = contract().rules.map((rule) => rule.id);

  it("every rule with a fault keeps at least as many fault runs, one test per fault", () => {
    const runs = new Map<string, number>();
    for (const { fault, dates } of FAULT_CASES)
      runs.set(fault.rule, (runs.get(fault.rule) ?? 0) + dates.length);
    const faulted = rules.filter((rule) => !WITHOUT_FAULT.includes(rule));
    expect([...runs.keys()].sort()).toEqual([...faulted].sort());
    expect(Object.keys(FAULT_RUNS_AT_LEAST).sort()).toEqual([...faulted].sort());
    const fewer = faulted.filter((rule) => (runs.get(rule) ?? 0) < (FAULT_RUNS_AT_LEAST[rule] ?? 0));
    expect(fewer.map((rule) => `${rule}: ${runs.get(rule) ?? 0} < ${FAULT_RUNS_AT_LEAST[rule]}`)).toEqual([]);
    expect(FAULT_CASES.length).toBeGreaterThanOrEqual(FAULTS_AT_LEAST);
    expect(new Set(FAULT_CASES.map((c) => c.fault.name)).size).toBe(FAULT_CASES.length);
    // The fault test runs these very cases, one `it` each, at each case's own dates.
    const source = readFileSync(join(packageRoot(), "test", "specs", "faults.test.ts"), "utf8");
    expect(source).toMatch(/it\.each\(FAULT_CASES\.map\(/);
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
