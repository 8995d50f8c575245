import { type ConsumerRules, effectiveSeverity, type NotifyRuleId } from "../contracts/consumer-rules.js";
import type { Evidence, Finding } from "../core/finding.js";
import { SIGNATURE_HEADER } from "../core/notification-signature.js";
import type { ApiAnswer } from "./api.js";
import type { NotifyCase } from "./cases.js";
import type { DeliveryResult } from "./deliver.js";

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

const shown = (a: ApiAnswer) => `${a.method} ${a.path} → ${a.status}`;

/**
 * Each delivery of a case: the request with its signature, the body sent, the answer and, when the
 * receiver reconciles against an API, what it read there first.
 */
function deliveriesOf(
  c: NotifyCase,
  results: readonly DeliveryResult[],
  reads: readonly (readonly ApiAnswer[])[] | undefined,
): Evidence | undefined {
  const first = c.deliveries[0];
  if (!first) return undefined;
  const answer = results[0];
  const lines = c.deliveries.map((d, i) => {
    const r = results[i];
    const said = !r
      ? "not sent"
      : r.kind === "answered"
        ? `answered ${r.status} ${r.excerpt}`
        : `no answer: ${r.error}`;
    const read = reads
      ? `; read from the API first: ${(reads[i] ?? []).map(shown).join(", ") || "nothing"}`
      : "";
    return `delivery ${i + 1}: ${SIGNATURE_HEADER}: ${d.signature ?? "(none)"}; body ${d.body.toString("utf8")}; ${said}${read}`;
  });
  return {
    request: {
      method: "POST",
      url: first.url,
      headers: {
        "content-type": "application/json",
        ...(first.signature === undefined ? {} : { [SIGNATURE_HEADER]: first.signature }),
      },
    },
    ...(answer?.kind === "answered" ? { response: { status: answer.status, excerpt: answer.excerpt } } : {}),
    diagnostics: lines,
  };
}

/** `pass` and `fail` judge a rule; `warn` reports what an advice case saw, never failing. */
type Verdict = "pass" | "fail" | "warn";

/** The verdict of a case's answers against what it expects, and why. */
function expected(c: NotifyCase, results: readonly DeliveryResult[]): [Verdict, string] {
  const [r] = results;
  if (c.expect === "accept") {
    const bad = results.findIndex((x) => !is2xx(x));
    const failed = results[bad];
    if (failed) return ["fail", `expected 2xx, ${ordinal(bad, results.length)} ${said(failed)}`];
    return ["pass", `accepted (${results.map((x) => (x.kind === "answered" ? x.status : "?")).join(", ")})`];
  }
  if (!r) return [c.expect === "either" ? "warn" : "fail", "nothing was sent"];
  switch (c.expect) {
    case "reject":
      if (is4xx(r)) return ["pass", `refused (${r.kind === "answered" ? r.status : "?"})`];
      if (is2xx(r))
        return ["fail", `accepted a forged notification: ${said(r)}; it must be refused with 4xx`];
      return [
        "fail",
        `expected 4xx, it ${said(r)}: refuse forgeries with 401 or 403 (a 5xx makes the service retry)`,
      ];
    case "answer":
      if (is2xx(r) || is4xx(r))
        return ["pass", `${is2xx(r) ? "acknowledged" : "refused"} after reading the API (${said(r)})`];
      return [
        "fail",
        `expected a 2xx once the API was read, or a 4xx; it ${said(r)} (the service would send it again)`,
      ];
    case "either":
      return ["warn", is2xx(r) ? `accepted: lenient (${said(r)})` : `refused: strict (${said(r)})`];
  }
}

/**
 * Judges one case from the receiver's answers and, for each answer, what the API answered between the
 * case's start and that answer (`reads`; `undefined`: no API to read). A failed case of a robustness
 * rule (beyond the seed: surviving the real service) is a warning unless the run is `strict`; a note
 * (what an advice case saw) is a warning too. Data in, data out: nothing throws.
 */
export function judgeCase(
  c: NotifyCase,
  results: readonly DeliveryResult[],
  reads: readonly (readonly ApiAnswer[])[] | undefined,
  rules: ConsumerRules,
  strict = false,
): Finding {
  let [verdict, reason] = expected(c, results);
  let rule: NotifyRuleId = c.rule;
  // A 2xx acknowledges: unsigned, only the API can say the notification is true, so a read comes first.
  const acked = results.findIndex(is2xx);
  if (
    verdict !== "fail" &&
    c.reconcile.length > 0 &&
    acked !== -1 &&
    !readOne(c.reconcile, reads?.[acked] ?? [])
  ) {
    verdict = "fail";
    rule = "notify.reconciles";
    reason = `acknowledged (${ordinal(acked, results.length)} ${said(results[acked] as DeliveryResult)}) without first reading GET ${c.reconcile.join(" or GET ")}: an unsigned notification is only true once the API confirms it`;
  }
  if (verdict === "fail" && effectiveSeverity(rules.byId(rule).severity, strict) === "robustness") {
    verdict = "warn";
    reason = `(robustness, an error with --strict) ${reason}`;
  }
  const evidence = deliveriesOf(c, results, reads);
  return Object.freeze({
    id: c.id,
    rule,
    group: rule,
    verdict,
    reason,
    ...(evidence ? { evidence } : {}),
    ...(verdict === "fail" ? { fix: rules.byId(rule).fix } : {}),
  });
}
