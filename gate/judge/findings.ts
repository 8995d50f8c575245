import {
  type ConsumerRules,
  type GateRuleId,
  type Severity,
  severityIn,
} from "../../contracts/consumer-rules.js";
import type { Evidence, Finding } from "../../core/finding.js";
import type { RecordedExchange } from "../exchange.js";

/** The longest URL a report shows whole. */
const URL_SHOWN = 400;

/** A finding's evidence: the offending request (its order, method and URL as sent), its status, details. */
function evidenceOf(exchange: RecordedExchange | undefined, details: readonly string[]): Evidence {
  const url =
    exchange && exchange.rawUrl.length > URL_SHOWN
      ? `${exchange.rawUrl.slice(0, URL_SHOWN)}…`
      : exchange?.rawUrl;
  const status = exchange?.response?.status;
  return {
    ...(exchange && url !== undefined
      ? { request: { seq: exchange.seq, method: exchange.method, url } }
      : {}),
    ...(status === undefined ? {} : { response: { status } }),
    ...(details.length > 0 ? { diagnostics: Object.freeze([...details]) } : {}),
  };
}

export interface FindingInput {
  readonly message: string;
  readonly exchange?: RecordedExchange | undefined;
  readonly details?: readonly string[];
  /** Overrides the rule's own severity (v3 use before the switch-off is advice). */
  readonly severity?: Severity;
  /** Listed before every other finding (a crash explains the rest). */
  readonly leads?: boolean;
}

export type FindingCollector = ReturnType<typeof createFindingCollector>;

/**
 * Collects the findings of one scenario (each finding's group), one per rule and group (a crawl, a
 * token …): the first offending request is kept with its evidence, the next ones only counted (`(n more
 * like it)`), so a loop of a thousand requests stays one finding. Each is the one `Finding` of every
 * verb: an `error` fails, advice warns; `strict` makes robustness advice an error (`--strict`).
 */
export function createFindingCollector(rules: ConsumerRules, scenario: string, strict = false) {
  const found = new Map<string, { input: FindingInput; rule: GateRuleId; more: number }>();
  const findingOf = ({ input, rule, more }: { input: FindingInput; rule: GateRuleId; more: number }) => {
    const [severity, label] = severityIn(input.severity ?? rules.byId(rule).severity, strict);
    const details = [...(input.details ?? []), ...(more > 0 ? [`(${more} more like it)`] : [])];
    return Object.freeze<Finding>({
      id: rule,
      rule,
      group: scenario,
      verdict: severity === "error" ? "fail" : "warn",
      reason: `${label}${input.message}`,
      evidence: evidenceOf(input.exchange, details),
      ...(severity === "advice" ? {} : { fix: rules.byId(rule).fix }),
    });
  };
  return {
    add(rule: GateRuleId, group: string, input: FindingInput): void {
      const key = `${rule}\u0000${group}`;
      const existing = found.get(key);
      if (existing) existing.more += 1;
      else found.set(key, { input, rule, more: 0 });
    },
    findings: (): readonly Finding[] => {
      const order = ({ input }: { input: FindingInput }) =>
        input.leads ? 0 : (input.exchange?.seq ?? Number.MAX_SAFE_INTEGER);
      return Object.freeze([...found.values()].sort((a, b) => order(a) - order(b)).map(findingOf));
    },
  };
}
