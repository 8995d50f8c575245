import type { IsoDay } from "../core/dates.js";
import type { Finding } from "../core/finding.js";
import type { CommandOutcome } from "../core/run-command.js";
import type { TrafficStep } from "../report/index.js";
import type { ScenarioName } from "./scenarios.js";

/** The verdict of one scenario. Verdicts are data: nothing here throws. */
export interface ScenarioVerdict {
  readonly scenario: ScenarioName;
  readonly summary: string;
  /** The date the server ran at. */
  readonly at: IsoDay;
  /** True when no finding fails. */
  readonly passed: boolean;
  /** One per broken rule and subject (a crawl, a token …), ordered by their first offending request. */
  readonly findings: readonly Finding[];
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
