import { join } from "node:path";
import { contractsDir } from "../core/paths.js";
import { dataError, readDataFile } from "./data-file.js";
import type { TimelineEffect } from "./types.js";

/** Rules `assopay gate` judges an SDK's traffic by, in the order reports list them. The judges switch on them. */
export const GATE_RULE_IDS = Object.freeze([
  "crawl.first-call-without-token",
  "crawl.token-echoed",
  "crawl.no-call-after-empty-page",
  "crawl.reaches-empty-page",
  "crawl.no-invented-token",
  "versions.no-v3-after-switch-off",
  "counts.no-withcount-after-removal",
  "counts.withcount-when-needed",
  "auth.fresh-token-after-401",
  "retry.waits-retry-after",
  "retry.resumes-with-token",
  "retry.survives-refusal",
  "run.bounded",
  "run.command-succeeds",
  "run.traffic-seen",
] as const);

export type GateRuleId = (typeof GATE_RULE_IDS)[number];

/** Rules `assopay notify` judges a webhook receiver by, in the order reports list them. */
export const NOTIFY_RULE_IDS = Object.freeze([
  "notify.accepts-signed",
  "notify.accepts-unsigned",
  "notify.reconciles",
  "notify.tolerates-unknown-type",
  "notify.tolerates-added-fields",
  "notify.verifies-raw-bytes",
  "notify.rejects-forged",
  "notify.idempotent",
  "notify.signature-case",
] as const);

export type NotifyRuleId = (typeof NOTIFY_RULE_IDS)[number];

export type ConsumerRuleId = GateRuleId | NotifyRuleId;

/**
 * How much a broken rule weighs. `error`: a rule of the seed is broken, the run fails. `robustness`:
 * advice about surviving the real service (renewing a token after a 401, answering a repeat), reported as
 * a warning unless the run is `--strict`, where it fails. `advice`: reported only, never a failure.
 */
export type Severity = "error" | "robustness" | "advice";

/** How a finding below `error` is labelled: it warns, and says whether `--strict` would fail it. */
const LABELS: Readonly<Record<Severity, string>> = {
  error: "",
  robustness: "(robustness, an error with --strict) ",
  advice: "(advice) ",
};

/** The severity a finding takes in a run (`--strict` makes robustness advice an error) and its label. */
export function severityIn(severity: Severity, strict: boolean): readonly [Severity, string] {
  const taken = severity === "robustness" && strict ? "error" : severity;
  return [taken, LABELS[taken]];
}

/** One rule of `contracts/consumer-rules.yaml`. */
export interface ConsumerRule {
  readonly id: ConsumerRuleId;
  readonly applies: "gate" | "notify";
  readonly severity: Severity;
  /** The seed section (or reference fact) the rule comes from. */
  readonly seed: string;
  readonly summary: string;
  /** What the consumer should do instead, one sentence. */
  readonly fix: string;
  /** The timeline effect a dated rule starts with (absent: in force at every date). */
  readonly inForceFrom?: TimelineEffect;
  readonly limits: Readonly<Record<string, number>>;
}

/** The loaded rules, in file order. */
export interface ConsumerRules {
  readonly all: readonly ConsumerRule[];
  readonly file: string;
  byId(id: ConsumerRuleId): ConsumerRule;
  /** A numeric limit of a rule (`limits:` in the file), or the fallback when the file gives none. */
  limit(id: ConsumerRuleId, name: string, fallback: number): number;
}

/** A rule as the file holds it, before its id is checked against the code's. */
type RawRule = Omit<ConsumerRule, "id" | "limits"> & { id: string; limits?: Record<string, number> };

/**
 * Reads `contracts/consumer-rules.yaml` (or your own copy), checks it against its meta-schema and checks
 * that it names exactly the rules the code judges by. A bad file is an `AssopayError` (`bad-contract`,
 * exit 2) with the file and a hint.
 *
 * @example
 * const rules = loadConsumerRules();
 * rules.byId("crawl.token-echoed").fix; // "Percent-encode the token exactly once …"
 */
export function loadConsumerRules(file: string = join(contractsDir(), "consumer-rules.yaml")): ConsumerRules {
  const metaDir = join(contractsDir(), "meta");
  const raw = (readDataFile(metaDir, "consumer-rules", file, "consumer rules").data as { rules: RawRule[] })
    .rules;
  const known: readonly string[] = [...GATE_RULE_IDS, ...NOTIFY_RULE_IDS];
  const fail = (message: string, hint: string) => dataError(file, undefined, message, hint);
  const seen = new Set<string>();
  for (const rule of raw) {
    if (!known.includes(rule.id))
      throw fail(`unknown consumer rule "${rule.id}"`, `known rules: ${known.join(", ")}`);
    if (seen.has(rule.id)) throw fail(`consumer rule "${rule.id}" appears twice`, "each id appears once");
    const expected = (GATE_RULE_IDS as readonly string[]).includes(rule.id) ? "gate" : "notify";
    if (rule.applies !== expected)
      throw fail(`consumer rule "${rule.id}" applies to ${expected}`, `write applies: ${expected}`);
    seen.add(rule.id);
  }
  const missing = known.filter((id) => !seen.has(id));
  if (missing.length > 0)
    throw fail(
      `consumer rules missing: ${missing.join(", ")}`,
      "every rule the code judges by needs an entry",
    );
  const all = Object.freeze(
    raw.map((r) =>
      Object.freeze({
        id: r.id as ConsumerRuleId,
        applies: r.applies,
        severity: r.severity,
        seed: r.seed,
        summary: r.summary,
        fix: r.fix,
        ...(r.inForceFrom === undefined ? {} : { inForceFrom: r.inForceFrom }),
        limits: Object.freeze({ ...(r.limits ?? {}) }),
      }),
    ),
  );
  const byId = new Map(all.map((r) => [r.id, r]));
  return Object.freeze({
    all,
    file,
    byId(id: ConsumerRuleId): ConsumerRule {
      const rule = byId.get(id);
      if (!rule) throw new Error(`consumer rule ${id} not loaded`);
      return rule;
    },
    limit(id: ConsumerRuleId, name: string, fallback: number): number {
      return byId.get(id)?.limits[name] ?? fallback;
    },
  });
}
