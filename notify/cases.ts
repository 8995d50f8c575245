import { createHmac } from "node:crypto";
import type { NotifyRuleId } from "../contracts/consumer-rules.js";
import type { NotificationType } from "../contracts/index.js";
import { notificationBody } from "./bodies.js";
import { type RawForm, serialise } from "./raw-forms.js";
import { sign } from "./signature.js";

/** One POST of the battery: the raw body and the signature header (`undefined`: no header at all). */
export interface Delivery {
  readonly body: Buffer;
  readonly signature: string | undefined;
}

/** What a case expects of the receiver: a 2xx, a 4xx, or nothing in particular (reported only). */
export type Expectation = "accept" | "reject" | "either";

/** One case of the battery: one or more deliveries, judged together. */
export interface NotifyCase {
  readonly id: string;
  readonly rule: NotifyRuleId;
  readonly title: string;
  readonly expect: Expectation;
  readonly deliveries: readonly Delivery[];
}

export interface BatteryInput {
  /** The types to send signed (the contract's, or those `--types` chose). */
  readonly types: readonly NotificationType[];
  /** The receiver's signing key. */
  readonly key: string;
  /** The event type no contract knows, standing for a future one. */
  readonly unknownEventType: string;
}

/** A key that is not the receiver's, derived from it so that it never equals it. */
function otherKey(key: string): string {
  return createHmac("sha256", "assopay-notify other key").update(key).digest("base64url");
}

/**
 * The battery, in the order it is sent: every type signed, an unknown type, raw bytes that differ from
 * a re-serialisation, an uppercase signature (reported only), forgeries, and one notification twice.
 * Each case has bodies of its own (its own ids), so that deduplication never mixes two cases.
 */
export function buildBattery(input: BatteryInput): readonly NotifyCase[] {
  const { key } = input;
  let n = 0;
  const body = (typeId: string, eventType: string, form: RawForm = "compact") =>
    serialise(notificationBody(typeId, eventType, ++n), form);
  const signed = (bytes: Buffer): Delivery => ({ body: bytes, signature: sign(bytes, key) });
  const cases: NotifyCase[] = [];

  for (const type of input.types) {
    cases.push({
      id: `signed:${type.eventType}`,
      rule: "notify.accepts-signed",
      title: `a correctly signed ${type.eventType} notification${type.assumed ? " (identifier assumed)" : ""}`,
      expect: "accept",
      deliveries: [signed(body(type.id, type.eventType))],
    });
  }
  cases.push({
    id: "unknown-type",
    rule: "notify.tolerates-unknown-type",
    title: `a correctly signed notification of an unknown, future type (${input.unknownEventType})`,
    expect: "accept",
    deliveries: [signed(body("future", input.unknownEventType))],
  });
  const raw: readonly [RawForm, string][] = [
    ["spaced", "extra spaces and line breaks between the tokens"],
    ["escaped", "escaped unicode and slashes, as the service writes them (\\u00e9, \\/)"],
    ["reordered", "the keys in another order"],
  ];
  for (const [form, what] of raw) {
    cases.push({
      id: `raw:${form}`,
      rule: "notify.verifies-raw-bytes",
      title: `a Payment notification with ${what}, signed over those raw bytes`,
      expect: "accept",
      deliveries: [signed(body("payment", "Payment", form))],
    });
  }
  const upper = body("payment", "Payment");
  cases.push({
    id: "uppercase-hex",
    rule: "notify.signature-case",
    title: "the right signature written in uppercase hex (the service sends lowercase)",
    expect: "either",
    deliveries: [{ body: upper, signature: sign(upper, key).toUpperCase() }],
  });

  const forged = (id: string, title: string, delivery: Delivery) =>
    cases.push({
      id: `forged:${id}`,
      rule: "notify.rejects-forged",
      title,
      expect: "reject",
      deliveries: [delivery],
    });
  const victim = body("payment", "Payment");
  forged("bad-signature", "a Payment notification whose signature is another body's", {
    body: victim,
    signature: sign(body("payment", "Payment"), key),
  });
  const otherBytes = body("payment", "Payment");
  forged("other-key", "a Payment notification signed with another key", {
    body: otherBytes,
    signature: sign(otherBytes, otherKey(key)),
  });
  forged("missing-header", "a Payment notification without the x-ha-signature header", {
    body: body("payment", "Payment"),
    signature: undefined,
  });
  forged("empty-header", "a Payment notification with an empty x-ha-signature header", {
    body: body("payment", "Payment"),
    signature: "",
  });
  const original = body("payment", "Payment");
  const altered = Buffer.from(original.toString("utf8").replace('"amount":2500', '"amount":1'), "utf8");
  forged("body-altered", "a Payment notification whose amount was changed after signing", {
    body: altered,
    signature: sign(original, key),
  });

  const twice = signed(body("order", "Order"));
  cases.push({
    id: "duplicate",
    rule: "notify.idempotent",
    title: "the same Order notification delivered twice (the service retries)",
    expect: "accept",
    deliveries: [twice, twice],
  });
  return Object.freeze(cases);
}
