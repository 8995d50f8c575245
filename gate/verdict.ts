import type { GateRuleId, Severity } from "../contracts/consumer-rules.js";
import type { IsoDay } from "../core/dates.js";
import type { CommandOutcome } from "../core/run-command.js";
import type { TrafficStep } from "../report/index.js";
import type { ScenarioName } from "./scenarios.js";

/** The request a finding points at, as the command sent it. */
export interface RequestEvidence {
  /** Its arrival order in the scenario (1-based). */
  readonly seq: number;
  readonly method: string;
  /** The request target exactly as received. */
  readonly url: string;
  readonly status: number | undefined;
}

/** One broken gate rule (or one piece of advice), with the first offending request. Not to be confused with
 * verify's per-subject `Finding` (specs/runner/verdicts.ts): both end up as cases of report/. */
export interface RuleFinding {
  readonly rule: GateRuleId;
  readonly severity: Severity;
  readonly message: string;
  readonly request: RequestEvidence | undefined;
  /** Lines of evidence: the token given and the token sent, the likely cause … */
  readonly details: readonly string[];
  /** Further requests that broke the rule the same way, not listed. */
  readonly more: number;
}

/** The verdict of one scenario. Verdicts are data: nothing here throws. */
export interface ScenarioVerdict {
  readonly scenario: ScenarioName;
  readonly summary: string;
  /** The date the server ran at. */
  readonly at: IsoDay;
  /** True when no finding of severity `error`. */
  readonly passed: boolean;
  readonly findings: readonly RuleFinding[];
  readonly requests: number;
  readonly crawls: number;
  readonly command: CommandOutcome;
  /** Every request in order, for the HTML report's traffic timeline (left out of the JSON report). */
  readonly traffic?: readonly TrafficStep[];
}

/** The whole run: every scenario, in the order run. */
export interface GateReport {
  readonly command: readonly string[];
  readonly upstream: "sandbox" | "replay" | "url";
  readonly passed: boolean;
  readonly scenarios: readonly ScenarioVerdict[];
}
