import type { CaseVerdict } from "./verdict.js";

const outcome = (cases: readonly CaseVerdict[], id: string) => cases.find((c) => c.id === id)?.outcome;
const status = (c: CaseVerdict | undefined, i = 0) => {
  const r = c?.results[i];
  return r?.kind === "answered" ? r.status : undefined;
};

/**
 * What the failures together say about the receiver, in a sentence each: the usual bugs leave a
 * recognisable pattern across cases (SERVICE-FACTS, "What integrators get wrong").
 */
export function diagnose(cases: readonly CaseVerdict[]): readonly string[] {
  const notes: string[] = [];
  const signed = cases.filter((c) => c.id.startsWith("signed:"));
  const upper = cases.find((c) => c.id === "uppercase-hex");
  const upperAccepted = status(upper) !== undefined && (status(upper) ?? 0) < 300;
  if (signed.length > 0 && signed.every((c) => c.outcome === "fail") && upperAccepted) {
    notes.push(
      "It accepts an uppercase-hex signature but refuses the lowercase one the service sends: compare with the lowercase hex (or without case).",
    );
  } else if (signed.length > 0 && signed.every((c) => c.outcome === "fail")) {
    notes.push(
      "It refuses every correctly signed notification: check the key (the URL's signatureKey), the header (x-ha-signature) and the algorithm (HMAC-SHA256, hex).",
    );
  }
  const rawFailed = ["raw:spaced", "raw:escaped"].some((id) => outcome(cases, id) === "fail");
  if (rawFailed && signed.some((c) => c.outcome === "pass")) {
    notes.push(
      "It accepts compact JSON but refuses other bytes of the same value: it verifies a re-serialisation, not the raw body.",
    );
  }
  const duplicate = cases.find((c) => c.id === "duplicate");
  const first = status(duplicate, 0);
  if (
    duplicate?.outcome === "fail" &&
    duplicate.rule === "notify.idempotent" &&
    first !== undefined &&
    first < 300
  ) {
    notes.push(
      "It refuses a notification it has already seen: the service retries until it gets a 2xx, so acknowledge repeats.",
    );
  }
  const forgedAccepted = (c: CaseVerdict) =>
    c.id.startsWith("forged:") &&
    c.rule === "notify.rejects-forged" &&
    c.outcome === "fail" &&
    (status(c) ?? 500) < 300;
  if (cases.some((c) => forgedAccepted(c) && !c.id.endsWith("url-secret"))) {
    notes.push("It acts on notifications anyone could send: verify x-ha-signature before reading the body.");
  }
  if (cases.some((c) => forgedAccepted(c) && c.id.endsWith("url-secret"))) {
    notes.push(
      "It accepts notifications at a URL without its secret: compare the secret in the path with yours (in constant time) and refuse with 401 or 404 otherwise.",
    );
  }
  const unread = cases.filter((c) => c.rule === "notify.reconciles" && c.outcome === "fail");
  if (unread.some((c) => c.reason.startsWith("acknowledged"))) {
    notes.push(
      `It acknowledges unsigned notifications without reading the API (${unread.map((c) => c.id).join(", ")}): anyone who learns the URL could post them; read GET /v5/payments/{id} or /v5/orders/{id} and act on what the API says.`,
    );
  }
  const slow = cases.filter((c) => c.results.some((r) => r.kind === "no-answer" && r.slow));
  if (slow.length > 0) {
    notes.push(
      `It is slow: ${slow.length} of ${cases.length} cases got no answer within the service's wait (${slow.map((c) => c.id).join(", ")}); the service takes that as a failure and sends the notification again and again. Answer 2xx first, then do the work (a queue).`,
    );
  }
  return Object.freeze(notes);
}
