import type { ConsumerRules, GateRuleId, Severity } from "../../contracts/consumer-rules.js";
import type { RecordedExchange } from "../exchange.js";
import type { RequestEvidence, RuleFinding } from "../verdict.js";

/** The longest URL a report shows whole. */
const URL_SHOWN = 400;

export function evidence(exchange: RecordedExchange): RequestEvidence {
  const url =
    exchange.rawUrl.length > URL_SHOWN ? `${exchange.rawUrl.slice(0, URL_SHOWN)}…` : exchange.rawUrl;
  return { seq: exchange.seq, method: exchange.method, url, status: exchange.response?.status };
}

export interface FindingInput {
  readonly message: string;
  readonly exchange?: RecordedExchange | undefined;
  readonly details?: readonly string[];
  /** Overrides the rule's own severity (v3 use before the switch-off is advice). */
  readonly severity?: Severity;
}

/**
 * Collects findings, one per rule and group (a crawl, a token …): the first offending request is kept
 * with its evidence, the next ones only counted, so a loop of a thousand requests stays one finding.
 */
export interface FindingCollector {
  add(rule: GateRuleId, group: string, input: FindingInput): void;
  findings(): readonly RuleFinding[];
}

export function createFindingCollector(rules: ConsumerRules): FindingCollector {
  const found = new Map<string, { finding: RuleFinding; more: number }>();
  return {
    add(rule, group, input) {
      const key = `${rule}\u0000${group}`;
      const existing = found.get(key);
      if (existing) {
        existing.more += 1;
        return;
      }
      found.set(key, {
        more: 0,
        finding: {
          rule,
          severity: input.severity ?? rules.byId(rule).severity,
          message: input.message,
          request: input.exchange ? evidence(input.exchange) : undefined,
          details: Object.freeze([...(input.details ?? [])]),
          more: 0,
        },
      });
    },
    findings: () =>
      Object.freeze(
        [...found.values()]
          .map(({ finding, more }) => Object.freeze({ ...finding, more }))
          .sort(
            (a, b) =>
              (a.request?.seq ?? Number.MAX_SAFE_INTEGER) - (b.request?.seq ?? Number.MAX_SAFE_INTEGER),
          ),
      ),
  };
}
