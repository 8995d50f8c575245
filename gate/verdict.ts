import type { IsoDay } from "../core/dates.js";
import type { Finding } from "../core/finding.js";
import type { CommandEnd } from "../core/run-command.js";
import type { TrafficStep } from "../report/index.js";
import type { ScenarioName } from "./scenarios.js";

/** One scenario as run: its findings (the one result type) and what the run saw. Nothing here throws. */
export interface ScenarioRun {
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
  readonly command: CommandEnd;
  /** Every request in order, for the HTML report's traffic timeline (left out of the JSON report). */
  readonly traffic?: readonly TrafficStep[];
}

/** The whole run: every scenario, in the order run. */
export interface GateReport {
  readonly command: readonly string[];
  readonly upstream: "sandbox" | "replay" | "url";
  readonly passed: boolean;
  readonly scenarios: readonly ScenarioRun[];
}
