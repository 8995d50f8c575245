import type { ExchangeResponse, RecordedExchange } from "../exchange.js";

type Pending = Omit<RecordedExchange, "seq" | "at" | "response">;

/**
 * The traffic of one scenario, in arrival order, bounded by the request budget: past it nothing more is
 * kept, and `exhausted` turns true.
 */
export interface TrafficLog {
  /** Records a request, stamped with its arrival; `undefined` when the budget is spent (the request must not be served). */
  begin(request: Pending): number | undefined;
  finish(seq: number, response: ExchangeResponse): void;
  /** Whether a request arrived after the budget was spent. */
  readonly exhausted: boolean;
  /** A frozen copy of everything recorded. */
  exchanges(): readonly RecordedExchange[];
}

export function createTrafficLog(maxRequests: number): TrafficLog {
  const kept: RecordedExchange[] = [];
  let exhausted = false;
  return {
    begin(request) {
      if (kept.length >= maxRequests) {
        exhausted = true;
        return undefined;
      }
      const seq = kept.length + 1;
      kept.push({ ...request, seq, at: Date.now(), response: undefined });
      return seq;
    },
    finish(seq, response) {
      const found = kept[seq - 1];
      if (found) kept[seq - 1] = { ...found, response: Object.freeze({ ...response }) };
    },
    get exhausted() {
      return exhausted;
    },
    exchanges: () => Object.freeze(kept.map((e) => Object.freeze({ ...e }))),
  };
}
