import { createHmac } from "node:crypto";
import type { NotifyRuleId } from "../contracts/consumer-rules.js";
import { AssopayError } from "../core/errors.js";
import { signNotification as sign } from "../core/notification-signature.js";
import { orderPath, paymentPath, type readKnownPayments } from "./api.js";
import { type Body, notificationBody } from "./bodies.js";
import type { RecordedNotification, ResolvedNotifyOptions } from "./options.js";
import { type RawForm, serialise } from "./raw-forms.js";

/** One POST of the battery: where, the raw body, and the signature header (`undefined`: no header at all). */
export interface Delivery {
  readonly url: string;
  readonly body: Buffer;
  readonly signature: string | undefined;
}

/**
 * What a case expects of the receiver: a 2xx, a 4xx, a 2xx or a 4xx (`answer`: a notification it may
 * acknowledge once the API told it the truth, or refuse), or nothing in particular (reported only).
 */
export type Expectation = "accept" | "reject" | "answer" | "either";

/** One case of the battery: one or more deliveries, judged together. */
export interface NotifyCase {
  readonly id: string;
  readonly rule: NotifyRuleId;
  readonly title: string;
  readonly expect: Expectation;
  readonly deliveries: readonly Delivery[];
  /**
   * The API reads that confirm what the notification names (`GET /v5/payments/{id}`, `/v5/orders/{id}`):
   * one of them must come before a 2xx. Empty: acknowledging needs no read.
   */
  readonly reconcile: readonly string[];
}

/**
 * What a battery is built from: the options, and the payments the API knows (one per notification that
 * names one, and an id it knows none by).
 */
export type BatteryInput = Pick<
  ResolvedNotifyOptions,
  "types" | "to" | "key" | "urlSecret" | "unknownEventType"
> & {
  readonly api?: Awaited<ReturnType<typeof readKnownPayments>> | undefined;
};

/** How many payments of the API a battery may name: more than any battery has cases. */
export const KNOWN_PAYMENTS = 30;

/** A key that is not the receiver's, derived from it so that it never equals it. */
function otherKey(key: string): string {
  return createHmac("sha256", "assopay-notify other key").update(key).digest("base64url");
}

/** The reads that confirm a notification's data: a payment (it names its order) or an order (its payments). */
function confirmingReads(data: unknown): readonly string[] {
  const d = (data ?? {}) as { id?: unknown; order?: { id?: unknown }; payments?: { id?: unknown }[] };
  if (d.order?.id !== undefined) return [paymentPath(d.id), orderPath(d.order.id)];
  if (Array.isArray(d.payments)) return [orderPath(d.id), ...d.payments.map((p) => paymentPath(p.id))];
  return [];
}

/** A payment or order notification names what the API knows; other types carry made-up data. */
const NAMES_PAYMENT = new Set(["payment", "order", "refund-refused", "payment-contested"]);

/**
 * The battery, in the order it is sent: every type, an unknown type, an added field; signed, raw bytes
 * that differ from a re-serialisation, an uppercase signature (reported only) and signature forgeries;
 * with a URL secret, that secret wrong and missing; unsigned, notifications the API contradicts; and one
 * notification twice. Each case has bodies of its own (its own ids, its own payment of the API), so that
 * deduplication never mixes two cases. Unsigned, every notification that names a payment or an order
 * must be reconciled through the API before a 2xx.
 */
export function buildBattery(input: BatteryInput): readonly NotifyCase[] {
  const { key, to } = input;
  const reconciles = key === undefined;
  let n = 0;
  let k = 0;
  const known = () => {
    const found = input.api?.known[k++];
    if (input.api && !found)
      throw new AssopayError("internal", "assopay notify: the battery ran out of payments");
    return found;
  };
  const value = (typeId: string, eventType: string): Body =>
    notificationBody(typeId, eventType, ++n, input.api && NAMES_PAYMENT.has(typeId) ? known() : undefined);
  const send = (bytes: Buffer, url = to): Delivery => ({
    url,
    body: bytes,
    signature: key === undefined ? undefined : sign(bytes, key),
  });
  const cases: NotifyCase[] = [];
  const add = (c: Omit<NotifyCase, "reconcile">, data?: unknown) =>
    cases.push({ ...c, reconcile: reconciles ? confirmingReads(data) : [] });
  const one = (
    id: string,
    rule: NotifyRuleId,
    title: string,
    expect: Expectation,
    body: Body,
    names: unknown = body.data,
    url = to,
  ) => add({ id, rule, title, expect, deliveries: [send(serialise(body, "compact"), url)] }, names);
  const how = reconciles ? "unsigned, at the URL with its secret" : "correctly signed";

  for (const type of input.types) {
    const body = value(type.id, type.eventType);
    one(
      `${reconciles ? "unsigned" : "signed"}:${type.eventType}`,
      reconciles ? "notify.accepts-unsigned" : "notify.accepts-signed",
      `a ${type.eventType} notification${type.assumed ? " (identifier assumed)" : ""}, ${how}`,
      "accept",
      body,
      // A type whose identifier is assumed may be one the receiver does not know, and ignores: no read asked.
      type.assumed ? null : body.data,
    );
  }
  one(
    "unknown-type",
    "notify.tolerates-unknown-type",
    `a notification of an unknown, future type (${input.unknownEventType}), ${how}`,
    "accept",
    value("future", input.unknownEventType),
    null, // a type the receiver does not know names nothing it could confirm
  );
  const added = value("payment", "Payment");
  one(
    "added-field",
    "notify.tolerates-added-fields",
    `a Payment notification carrying fields the receiver has never seen (an added change), ${how}`,
    "accept",
    {
      ...added,
      deliveredAt: "2025-02-17T09:15:00.1234567+01:00",
      data: { ...(added.data as Body), donorWall: { visible: true, message: "Merci !" } },
    },
  );
  if (key !== undefined) signatureCases(add, key, () => value("payment", "Payment"), send);
  const secret = input.urlSecret;
  if (secret !== undefined) {
    const last = secret.at(-1) === "x" ? "y" : "x";
    const urls: readonly [string, string, string][] = [
      [
        "wrong-url-secret",
        "the URL secret with its last character changed",
        to.replace(secret, `${secret.slice(0, -1)}${last}`),
      ],
      ["missing-url-secret", "the URL without its secret", to.replace(secret, "")],
    ];
    for (const [id, what, url] of urls) {
      const body = value("payment", "Payment");
      one(
        `forged:${id}`,
        "notify.rejects-forged",
        `a Payment notification sent to ${what}`,
        "reject",
        body,
        body.data,
        url,
      );
    }
  }
  if (reconciles && input.api) {
    const unknown = value("payment", "Payment");
    const unknownData = { ...(unknown.data as Body), id: input.api.unknownPaymentId };
    one(
      "forged:unknown-payment",
      "notify.reconciles",
      "a Payment notification at the right URL naming a payment the API does not know",
      "answer",
      { ...unknown, data: unknownData },
    );
    const contradicted = value("payment", "Payment");
    const data = contradicted.data as Body;
    one(
      "forged:contradicted-state",
      "notify.reconciles",
      "a Payment notification at the right URL whose state the API contradicts",
      "answer",
      { ...contradicted, data: { ...data, state: data.state === "Refunded" ? "Authorized" : "Refunded" } },
    );
  }
  const twice = value("order", "Order");
  const repeat = send(serialise(twice, "compact"));
  add(
    {
      id: "duplicate",
      rule: "notify.idempotent",
      title: "the same Order notification delivered twice (the service retries until it gets a 2xx)",
      expect: "accept",
      deliveries: [repeat, repeat],
    },
    twice.data,
  );
  return Object.freeze(cases);
}

/** The cases of a signing key: raw bytes, uppercase hex (reported only), and forged signatures. */
function signatureCases(
  add: (c: Omit<NotifyCase, "reconcile">) => void,
  key: string,
  payment: () => Body,
  send: (bytes: Buffer) => Delivery,
): void {
  const raw: readonly [RawForm, string][] = [
    ["spaced", "extra spaces and line breaks between the tokens"],
    ["escaped", "escaped unicode and slashes, as the service writes them (\\u00e9, \\/)"],
    ["reordered", "the keys in another order"],
  ];
  const push = (id: string, rule: NotifyRuleId, title: string, expect: Expectation, delivery: Delivery) =>
    add({ id, rule, title, expect, deliveries: [delivery] });
  for (const [form, what] of raw) {
    push(
      `raw:${form}`,
      "notify.verifies-raw-bytes",
      `a Payment notification with ${what}, signed over those raw bytes`,
      "accept",
      send(serialise(payment(), form)),
    );
  }
  const upper = send(serialise(payment(), "compact"));
  push(
    "uppercase-hex",
    "notify.signature-case",
    "the right signature written in uppercase hex (the service sends lowercase)",
    "either",
    { ...upper, signature: upper.signature?.toUpperCase() },
  );
  const forged = (id: string, title: string, delivery: Delivery) =>
    push(`forged:${id}`, "notify.rejects-forged", title, "reject", delivery);
  const bytes = () => serialise(payment(), "compact");
  const victim = send(bytes());
  forged("bad-signature", "a Payment notification whose signature is another body's", {
    ...victim,
    signature: send(bytes()).signature,
  });
  const other = send(bytes());
  forged("other-key", "a Payment notification signed with another key", {
    ...other,
    signature: sign(other.body, otherKey(key)),
  });
  forged("missing-header", "a Payment notification without the x-ha-signature header", {
    ...send(bytes()),
    signature: undefined,
  });
  forged("empty-header", "a Payment notification with an empty x-ha-signature header", {
    ...send(bytes()),
    signature: "",
  });
  const original = send(bytes());
  const text = original.body.toString("utf8");
  const altered = text.replace(
    /"amount":(\d+)/,
    (_m, cents: string) => `"amount":${Number(cents) === 1 ? 2 : 1}`,
  );
  forged("body-altered", "a Payment notification whose amount was changed after signing", {
    ...original,
    body: Buffer.from(altered, "utf8"),
  });
}

/** The recorded notifications, in their recorded order, each sent as recorded (re-signed with the key). */
export function recordedBattery(
  recorded: readonly RecordedNotification[],
  to: string,
  key: string | undefined,
): readonly NotifyCase[] {
  return Object.freeze(
    recorded.map((r): NotifyCase => {
      let eventType = "notification";
      try {
        eventType = String((JSON.parse(r.body.toString("utf8")) as { eventType?: unknown }).eventType);
      } catch {
        // not JSON: sent as recorded all the same
      }
      return {
        id: `recorded:${r.id}`,
        rule: key === undefined ? "notify.accepts-unsigned" : "notify.accepts-signed",
        title: `the recorded ${eventType} notification (document ${r.id})${key === undefined ? "" : ", re-signed"}`,
        expect: "accept",
        deliveries: [{ url: to, body: r.body, signature: key === undefined ? undefined : sign(r.body, key) }],
        reconcile: [],
      };
    }),
  );
}
