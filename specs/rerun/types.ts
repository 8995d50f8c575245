import type {
  DatedChange,
  DatedRules,
  EntryId,
  ExpectedCounts,
  PageCounts,
  Route,
} from "../../contracts/index.js";
import type { Finding } from "../../report/index.js";
import type { HttpExchange } from "../runner/http.js";
import type { Evidence } from "../runner/types.js";
import type { RerunStep } from "./steps.js";

/** A recorded exchange and the target's answer to the same request, parsed once. */
export interface Exchange {
  step: RerunStep;
  route: Route | undefined;
  /** The rules at `--at` for the route. */
  rules: DatedRules | undefined;
  recorded: { status: number; body: unknown };
  target: HttpExchange;
  /** The target's body as JSON, `undefined` when it is not JSON. */
  targetBody: unknown;
  /** The query sent to the target. */
  query: URLSearchParams;
  /** True when the path sent is the recorded one (no id replaced): the same resource as recorded. */
  sameResource: boolean;
}

/** What judging one exchange found. */
export interface Judgement {
  /** The rules the answer breaks, each a finding filed on its step; the first is the step's verdict. */
  readonly breaches: Finding[];
  /**
   * Files a breach of `rule`: a failure, or a warning under `--planned warn` when it rests only on
   * planned timeline entries (`timeline`).
   */
  fail(rule: string, reason: string, evidence: Evidence, timeline?: readonly string[]): void;
  readonly dated: DatedChange[];
  /** JSON paths whose difference from the recording a dated change explains (`pagination.totalCount`). */
  readonly explained: string[];
  /** Differences of status that no rule owns. */
  readonly differences: string[];
  /** Anything else worth a word in the reason. */
  readonly notes: string[];
}

/** One page of a listing as the target answered it. */
export interface TargetPage {
  step: RerunStep;
  ids: readonly EntryId[];
  /** The token for the next page, `undefined` when the page gave none. */
  token: string | undefined;
  size: number;
  counts: PageCounts;
  expected: ExpectedCounts;
}
