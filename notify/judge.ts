import { type ConsumerRules, type NotifyRuleId, severityIn } from "../contracts/consumer-rules.js";
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
  const [severity, label] = severityIn(rules.byId(rule).severity, strict);
  if (verdict === "fail" && severity === "robustness") {
    verdict = "warn";
    reason = `${label}${reason}`;
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

/** A case's finding with the receiver's answers it rests on. */
export interface Judged {
  readonly finding: Finding;
  readonly results: readonly DeliveryResult[];
}

const status = (c: Judged | undefined, i = 0) => {
  const r = c?.results[i];
  return r?.kind === "answered" ? r.status : undefined;
};

/**
 * What the failures together say about the receiver, in a sentence each: the usual bugs leave a
 * recognisable pattern across cases (SERVICE-FACTS, "What integrators get wrong").
 */
export function diagnose(judged: readonly Judged[]): readonly string[] {
  const notes: string[] = [];
  const cases = judged.map(({ finding }) => finding);
  const verdictOf = (id: string) => cases.find((c) => c.id === id)?.verdict;
  const withResults = (id: string) => judged.find((j) => j.finding.id === id);
  const signed = cases.filter((c) => c.id.startsWith("signed:"));
  const upper = withResults("uppercase-hex");
  const upperAccepted = status(upper) !== undefined && (status(upper) ?? 0) < 300;
  if (signed.length > 0 && signed.every((c) => c.verdict === "fail") && upperAccepted) {
    notes.push(
      "It accepts an uppercase-hex signature but refuses the lowercase one the service sends: compare with the lowercase hex (or without case).",
    );
  } else if (signed.length > 0 && signed.every((c) => c.verdict === "fail")) {
    notes.push(
      "It refuses every correctly signed notification: check the key (the URL's signatureKey), the header (x-ha-signature) and the algorithm (HMAC-SHA256, hex).",
    );
  }
  const rawFailed = ["raw:spaced", "raw:escaped"].some((id) => verdictOf(id) === "fail");
  if (rawFailed && signed.some((c) => c.verdict === "pass")) {
    notes.push(
      "It accepts compact JSON but refuses other bytes of the same value: it verifies a re-serialisation, not the raw body.",
    );
  }
  const duplicate = withResults("duplicate");
  const first = status(duplicate, 0);
  if (
    duplicate?.finding.verdict === "fail" &&
    duplicate.finding.rule === "notify.idempotent" &&
    first !== undefined &&
    first < 300
  ) {
    notes.push(
      "It refuses a notification it has already seen: the service retries until it gets a 2xx, so acknowledge repeats.",
    );
  }
  const forgedAccepted = (j: Judged) =>
    j.finding.id.startsWith("forged:") &&
    j.finding.rule === "notify.rejects-forged" &&
    j.finding.verdict === "fail" &&
    (status(j) ?? 500) < 300;
  if (judged.some((j) => forgedAccepted(j) && !j.finding.id.endsWith("url-secret"))) {
    notes.push("It acts on notifications anyone could send: verify x-ha-signature before reading the body.");
  }
  if (judged.some((j) => forgedAccepted(j) && j.finding.id.endsWith("url-secret"))) {
    notes.push(
      "It accepts notifications at a URL without its secret: compare the secret in the path with yours (in constant time) and refuse with 401 or 404 otherwise.",
    );
  }
  const unread = cases.filter((c) => c.rule === "notify.reconciles" && c.verdict === "fail");
  if (unread.some((c) => c.reason.startsWith("acknowledged"))) {
    notes.push(
      `It acknowledges unsigned notifications without reading the API (${unread.map((c) => c.id).join(", ")}): anyone who learns the URL could post them; read GET /v5/payments/{id} or /v5/orders/{id} and act on what the API says.`,
    );
  }
  const slow = judged
    .filter((j) => j.results.some((r) => r.kind === "no-answer" && r.slow))
    .map(({ finding }) => finding);
  if (slow.length > 0) {
    notes.push(
      `It is slow: ${slow.length} of ${cases.length} cases got no answer within the service's wait (${slow.map((c) => c.id).join(", ")}); the service takes that as a failure and sends the notification again and again. Answer 2xx first, then do the work (a queue).`,
    );
  }
  return Object.freeze(notes);
}
