import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { GATE_RULE_IDS, loadConsumerRules, NOTIFY_RULE_IDS } from "../../contracts/consumer-rules.js";
import { isAssopayError } from "../../core/errors.js";
import { contractsDir } from "../../core/paths.js";

const dir = mkdtempSync(join(tmpdir(), "assopay-rules-"));
const original = readFileSync(join(contractsDir(), "consumer-rules.yaml"), "utf8");

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function loadText(text: string): unknown {
  const file = join(dir, `rules-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(file, text);
  try {
    return loadConsumerRules(file);
  } catch (error) {
    return error;
  }
}

describe("contracts/consumer-rules.yaml", () => {
  it("holds exactly the rules the code judges by, each with a seed and a fix", () => {
    const rules = loadConsumerRules();
    expect(rules.all.map((r) => r.id).sort()).toEqual([...GATE_RULE_IDS, ...NOTIFY_RULE_IDS].sort());
    for (const rule of rules.all) {
      expect(rule.seed.length, rule.id).toBeGreaterThan(0);
      expect(rule.fix.length, rule.id).toBeGreaterThan(0);
    }
    expect(rules.limit("auth.fresh-token-after-401", "refusedTokenReuses", 9)).toBe(1);
    expect(rules.byId("notify.signature-case").severity).toBe("advice");
  });

  it("refuses a file that drops a rule, adds one, or breaks the meta-schema (exit 2)", () => {
    const dropped = loadText(
      original.replace(/ {2}- id: run\.traffic-seen[\s\S]*?(?=\n {2}#|\n {2}- id:)/, ""),
    );
    expect(isAssopayError(dropped) && dropped.message).toBe("consumer rules missing: run.traffic-seen");
    const added = loadText(
      `${original}\n  - { id: crawl.extra, applies: gate, severity: error, seed: s, summary: s, fix: f }\n`,
    );
    expect(isAssopayError(added) && added.message).toBe('unknown consumer rule "crawl.extra"');
    const bad = loadText(original.replace("    severity: advice", "    severity: maybe"));
    expect(isAssopayError(bad) && bad.code).toBe("bad-contract");
    expect(isAssopayError(bad) && bad.location?.line).toBeGreaterThan(1);
  });
});

describe("the severities --help states", () => {
  it("match contracts/consumer-rules.yaml, rule by rule", async () => {
    const { gateCommand } = await import("../../cli/commands/gate.js");
    const help = gateCommand.help;
    const section = (title: string, next: string) => {
      const start = help.indexOf(title);
      const end = help.indexOf(next, start + title.length);
      return help.slice(start, end === -1 ? undefined : end);
    };
    const errors = section("  errors, where", "  robustness,");
    const robustness = section("  robustness,", "  advice,");
    const advice = section("  advice, reported", "\n\n");
    for (const rule of loadConsumerRules().all.filter((r) => r.applies === "gate")) {
      const where = rule.severity === "error" ? errors : rule.severity === "robustness" ? robustness : advice;
      expect(where, `${rule.id} is ${rule.severity}`).toContain(rule.id);
    }
  });
});
