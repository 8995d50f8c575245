import type { Contract, TimelineEffect } from "../contracts/index.js";
import { dayStart, type IsoDay, todayIso } from "../core/dates.js";
import { AssopayError, commaList } from "../core/errors.js";

/** How pages are cut: as the upstream serves them, or into pieces of varying size (short pages mid-crawl). */
export type PageCut = "upstream" | "varying";

/**
 * What the final, empty page carries: a fresh token (one that resumes later), the token just sent back
 * (as the service is reported to do), or none. All three are legal (seed: Pagination object).
 */
export type FinalToken = "fresh" | "echo" | "absent";

/** What continuation tokens look like: base64-like as the service's (`+`, `/`, `=`), or full of `+/=%&` and spaces. */
export type TokenStyle = "service" | "tricky";

/**
 * A refusal the layer answers instead of the upstream, on a call that carries a continuation token
 * (mid-crawl), each once the previous one was cured by a page served: 429 with `Retry-After` in seconds,
 * 429 with `Retry-After` as an HTTP-date, 503 without `Retry-After`, or the connection closed unanswered.
 */
export type Fault = "rate-limit-seconds" | "rate-limit-date" | "unavailable" | "connection-reset";

/** When the scenario runs: at the gate's `--at` date, or the day before / the day of a dated change. */
export type ScenarioDate =
  | { kind: "given" }
  | { kind: "day-before"; effect: TimelineEffect }
  | { kind: "day-of"; effect: TimelineEffect };

export interface Scenario {
  readonly name: ScenarioName;
  readonly summary: string;
  readonly pages: PageCut;
  readonly finalToken: FinalToken;
  readonly tokens: TokenStyle;
  /** Whether the access token in use expires once, mid-crawl (401 on the first call carrying a token). */
  readonly expireOnce: boolean;
  /** The refusals answered mid-crawl, in order. */
  readonly faults: readonly Fault[];
  /** Whether the listings grow while the command crawls them (the sandbox's live listing). */
  readonly growing: boolean;
  readonly date: ScenarioDate;
}

const base = {
  pages: "upstream",
  finalToken: "fresh",
  tokens: "service",
  expireOnce: false,
  faults: [],
  growing: false,
  date: { kind: "given" },
} as const satisfies Omit<Scenario, "name" | "summary">;

/** The scenarios the day before and the day of a dated change. */
function dated<N extends string>(name: N, effect: TimelineEffect, what: string, beforeNote = "") {
  return [
    {
      ...base,
      name: `before-${name}` as const,
      date: { kind: "day-before", effect },
      summary: `the day before ${what}${beforeNote}`,
    },
    {
      ...base,
      name: `after-${name}` as const,
      date: { kind: "day-of", effect },
      summary: `the day ${what}`,
    },
  ] as const;
}

const TABLE = [
  {
    ...base,
    name: "uniform",
    summary: "pages of the server's size; the final empty page carries a fresh token",
  },
  {
    ...base,
    name: "varying-pages",
    pages: "varying",
    summary: "pages of varying size (short pages before the end, a page of one entry)",
  },
  {
    ...base,
    name: "final-token-echo",
    finalToken: "echo",
    summary: "the final empty page carries the very token that was sent",
  },
  {
    ...base,
    name: "final-token-absent",
    finalToken: "absent",
    summary: "the final empty page carries no token",
  },
  {
    ...base,
    name: "tricky-tokens",
    tokens: "tricky",
    summary: "tokens full of + / = % & and spaces",
  },
  {
    ...base,
    name: "token-expiry",
    expireOnce: true,
    summary: "the access token expires mid-crawl: 401 once, then a fresh token must work",
  },
  ...dated(
    "count-removal",
    "count-fields-removed",
    "totalCount/totalPages are removed",
    " (-1 unless withCount=true)",
  ),
  ...dated("v3-switch-off", "v3-switch-off", "v3 is switched off"),
  {
    ...base,
    name: "rate-limited",
    faults: ["rate-limit-seconds", "rate-limit-date"],
    summary:
      "429 mid-crawl, twice: Retry-After 1 (seconds), then an HTTP-date; an early retry gets 429 again",
  },
  {
    ...base,
    name: "transient-503",
    faults: ["unavailable"],
    summary: "503 once mid-crawl, without Retry-After",
  },
  {
    ...base,
    name: "connection-reset",
    faults: ["connection-reset"],
    summary: "the connection is closed unanswered once mid-crawl",
  },
  {
    ...base,
    name: "growing-listing",
    growing: true,
    summary: "the listing takes new orders while it is crawled (the sandbox's live listing)",
  },
] as const;

/** The server variants the command runs against, in turn. A closed union. */
export type ScenarioName = (typeof TABLE)[number]["name"];

/** Every scenario, in the order they run. */
export const SCENARIOS: readonly Scenario[] = Object.freeze(TABLE.map((s) => Object.freeze(s)));

export const SCENARIO_NAMES: readonly ScenarioName[] = Object.freeze(SCENARIOS.map((s) => s.name));

/** Parses scenario names (repeated flags or comma lists); an unknown one is a usage error. */
export function parseScenarioNames(texts: readonly string[]): readonly ScenarioName[] {
  const names = commaList(texts);
  if (names.length === 0) return SCENARIO_NAMES;
  const known = SCENARIO_NAMES as readonly string[];
  for (const name of names) {
    if (!known.includes(name)) {
      throw new AssopayError("usage", `assopay gate: unknown scenario "${name}"`, {
        hint: `scenarios: ${SCENARIO_NAMES.join(", ")}`,
      });
    }
  }
  return SCENARIO_NAMES.filter((n) => names.includes(n));
}

export function scenarioByName(name: ScenarioName): Scenario {
  const found = SCENARIOS.find((s) => s.name === name);
  if (!found) throw new Error(`unknown scenario ${name}`);
  return found;
}

/** The day a scenario runs at: `given` for undated ones, else from the contract's timeline. */
export function scenarioDay(scenario: Scenario, contract: Contract, given: IsoDay): IsoDay {
  const date = scenario.date;
  if (date.kind === "given") return given;
  const entry = contract.timeline.entry(date.effect);
  if (!entry) {
    throw new AssopayError("bad-contract", `the timeline has no "${date.effect}" entry`, {
      location: { file: contract.timeline.source },
      hint: `scenario ${scenario.name} needs it; leave it out with --scenario`,
    });
  }
  if (date.kind === "day-of") return entry.date;
  return todayIso(new Date(dayStart(entry.date).getTime() - 86_400_000));
}

/** Sizes of the pages of the `varying` cut, by page index (cycled). */
const VARYING_SIZES = [7, 1, 13, 20, 3, 11, 5, 17, 2] as const;

/** How many entries page `pageIndex` (1-based) of a crawl holds at most, or `undefined` for "all the upstream gave". */
export function pageLimit(cut: PageCut, pageIndex: number): number | undefined {
  return cut === "varying" ? VARYING_SIZES[(pageIndex - 1) % VARYING_SIZES.length] : undefined;
}
