import {
  type ConsumerRules,
  effectiveSeverity,
  type GateRuleId,
  type Severity,
} from "../../contracts/consumer-rules.js";
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
  /** Listed before every other finding (a crash explains the rest). */
  readonly leads?: boolean;
}

/**
 * Collects findings, one per rule and group (a crawl, a token …): the first offending request is kept
 * with its evidence, the next ones only counted, so a loop of a thousand requests stays one finding.
 */
export interface FindingCollector {
  add(rule: GateRuleId, group: string, input: FindingInput): void;
  findings(): readonly RuleFinding[];
}

/** Collects findings; `strict` makes robustness advice an error (`--strict`). */
export function createFindingCollector(rules: ConsumerRules, strict = false): FindingCollector {
  const found = new Map<string, { finding: RuleFinding; more: number; leads: boolean }>();
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
        leads: input.leads === true,
        finding: {
          rule,
          severity: effectiveSeverity(input.severity ?? rules.byId(rule).severity, strict),
          message: input.message,
          request: input.exchange ? evidence(input.exchange) : undefined,
          details: Object.freeze([...(input.details ?? [])]),
          more: 0,
        },
      });
    },
    findings: () => {
      const order = ({ finding, leads }: { finding: RuleFinding; leads: boolean }) =>
        leads ? 0 : (finding.request?.seq ?? Number.MAX_SAFE_INTEGER);
      return Object.freeze(
        [...found.values()]
          .sort((a, b) => order(a) - order(b))
          .map(({ finding, more }) => Object.freeze({ ...finding, more })),
      );
    },
  };
}
