import type { NotifyRuleId } from "../contracts/consumer-rules.js";
import type { ApiAnswer } from "./api.js";
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
      return r.slow
        ? `was too slow: ${r.error}, so the service counts it as failed and sends it again`
        : `gave no answer (${r.error})`;
  }
}

function ordinal(i: number, count: number): string {
  if (count === 1) return "it";
  return i === 0 ? "the first delivery" : "the second delivery";
}

/** Whether the API answered a read of one of `paths` (with the truth: found or not found). */
const readOne = (paths: readonly string[], reads: readonly ApiAnswer[]) =>
  reads.some((a) => a.method === "GET" && paths.includes(a.path) && (a.status === 200 || a.status === 404));

/**
 * Judges one case from the receiver's answers and, for each answer, what the API answered between the
 * case's start and that answer (`reads`). Data in, data out: nothing throws.
 */
export function judgeCase(
  c: NotifyCase,
  results: readonly DeliveryResult[],
  reads: readonly (readonly ApiAnswer[])[] = [],
): CaseVerdict {
  let outcome: CaseOutcome;
  let reason: string;
  let rule: NotifyRuleId = c.rule;
  const [r] = results;
  switch (c.expect) {
    case "accept": {
      const bad = results.findIndex((x) => !is2xx(x));
      const failed = results[bad];
      outcome = failed ? "fail" : "pass";
      reason = failed
        ? `expected 2xx, ${ordinal(bad, results.length)} ${said(failed)}`
        : `accepted (${results.map((x) => (x.kind === "answered" ? x.status : "?")).join(", ")})`;
      break;
    }
    case "reject":
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
    case "answer":
      outcome = r && (is2xx(r) || is4xx(r)) ? "pass" : "fail";
      reason = !r
        ? "nothing was sent"
        : outcome === "pass"
          ? `${is2xx(r) ? "acknowledged" : "refused"} after reading the API (${said(r)})`
          : `expected a 2xx once the API was read, or a 4xx; it ${said(r)} (the service would send it again)`;
      break;
    case "either":
      outcome = "note";
      reason = !r
        ? "nothing was sent"
        : is2xx(r)
          ? `accepted: lenient (${said(r)})`
          : `refused: strict (${said(r)})`;
      break;
  }
  // A 2xx acknowledges: unsigned, only the API can say the notification is true, so a read comes first.
  const acked = results.findIndex(is2xx);
  if (
    outcome !== "fail" &&
    c.reconcile.length > 0 &&
    acked !== -1 &&
    !readOne(c.reconcile, reads[acked] ?? [])
  ) {
    outcome = "fail";
    rule = "notify.reconciles";
    reason = `acknowledged (${ordinal(acked, results.length)} ${said(results[acked] as DeliveryResult)}) without first reading GET ${c.reconcile.join(" or GET ")}: an unsigned notification is only true once the API confirms it`;
  }
  return Object.freeze({
    id: c.id,
    rule,
    title: c.title,
    expect: c.expect,
    outcome,
    reason,
    results,
  });
}
