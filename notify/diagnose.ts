import type { Finding } from "../core/finding.js";
import type { DeliveryResult } from "./deliver.js";

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
  const outcome = (id: string) => cases.find((c) => c.id === id)?.verdict;
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
  const rawFailed = ["raw:spaced", "raw:escaped"].some((id) => outcome(id) === "fail");
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
