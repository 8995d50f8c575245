import type { NotifyRuleId } from "../contracts/consumer-rules.js";
import type { Expectation } from "./cases.js";
import type { DeliveryResult } from "./deliver.js";

/** `pass` and `fail` judge a rule; `note` reports what an advice case saw, never failing. */
export type CaseOutcome = "pass" | "fail" | "note";

export interface CaseVerdict {
  readonly id: string;
  readonly rule: NotifyRuleId;
  readonly title: string;
  readonly expect: Expectation;
  readonly outcome: CaseOutcome;
  /** One sentence: what the receiver did and, on a failure, why it is wrong. */
  readonly reason: string;
  readonly results: readonly DeliveryResult[];
  /**
   * What was sent, delivery by delivery: where, the body as text, the signature header when one was sent,
   * and what the receiver read from the API before it answered.
   */
  readonly sent?: readonly {
    readonly url?: string;
    readonly body: string;
    readonly signature?: string;
    readonly reads?: readonly string[];
  }[];
}

export interface NotifyReport {
  readonly to: string;
  readonly passed: boolean;
  readonly cases: readonly CaseVerdict[];
  /** What the failures together say ("it verifies a re-serialisation" …). */
  readonly diagnosis: readonly string[];
}
