import type { NotifyCase } from "./cases.js";
import type { DeliveryResult } from "./deliver.js";
import type { CaseOutcome, CaseVerdict } from "./verdict.js";

const is2xx = (r: DeliveryResult) => r.kind === "answered" && r.status >= 200 && r.status < 300;
const is4xx = (r: DeliveryResult) => r.kind === "answered" && r.status >= 400 && r.status < 500;

function said(r: DeliveryResult): string {
  switch (r.kind) {
    case "answered":
      return `answered ${r.status}${r.excerpt ? ` (${JSON.stringify(r.excerpt)})` : ""}`;
    case "no-answer":
      return `gave no answer (${r.error})`;
  }
}

function ordinal(i: number, count: number): string {
  if (count === 1) return "it";
  return i === 0 ? "the first delivery" : "the second delivery";
}

/** Judges one case from the receiver's answers. Data in, data out: nothing throws. */
export function judgeCase(c: NotifyCase, results: readonly DeliveryResult[]): CaseVerdict {
  let outcome: CaseOutcome;
  let reason: string;
  switch (c.expect) {
    case "accept": {
      const bad = results.findIndex((r) => !is2xx(r));
      const failed = results[bad];
      outcome = failed ? "fail" : "pass";
      reason = failed
        ? `expected 2xx, ${ordinal(bad, results.length)} ${said(failed)}`
        : `accepted (${results.map((r) => (r.kind === "answered" ? r.status : "?")).join(", ")})`;
      break;
    }
    case "reject": {
      const [r] = results;
      if (!r) {
        outcome = "fail";
        reason = "nothing was sent";
      } else if (is4xx(r)) {
        outcome = "pass";
        reason = `refused (${r.kind === "answered" ? r.status : "?"})`;
      } else if (is2xx(r)) {
        outcome = "fail";
        reason = `accepted a forged notification: ${said(r)}; it must be refused with 4xx`;
      } else {
        outcome = "fail";
        reason = `expected 4xx, it ${said(r)}: refuse forgeries with 401 or 403 (a 5xx makes the service retry)`;
      }
      break;
    }
    case "either": {
      const [r] = results;
      outcome = "note";
      reason = !r
        ? "nothing was sent"
        : is2xx(r)
          ? `accepted: lenient (${said(r)})`
          : `refused: strict (${said(r)})`;
      break;
    }
  }
  return Object.freeze({
    id: c.id,
    rule: c.rule,
    title: c.title,
    expect: c.expect,
    outcome,
    reason,
    results,
  });
}
