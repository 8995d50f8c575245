import type { NotificationType } from "../../contracts/index.js";
import type { CheckContext } from "../runner/context.js";
import { evidenceOf, excerptOf } from "../runner/excerpt.js";
import { isSuccess, parseJson } from "../runner/http.js";
import type { Evidence } from "../runner/types.js";
import { type Delivery, type Receiver, startReceiver } from "./receiver.js";

/** The notifications one provider state triggered. */
export interface Trigger {
  state: string;
  /** The contract's notification types this state emits. */
  expected: readonly NotificationType[];
  /** Deliveries that arrived after the state was set up. */
  deliveries: readonly Delivery[];
  /** Set when the state could not be set up. */
  refused?: string;
}

export type NotificationSession =
  | {
      ok: true;
      receiver: Receiver;
      /** The signing key partner information gives for the receiver's URL. */
      key: string | undefined;
      /** Why no key could be read, with the evidence. */
      keyProblem?: { reason: string; evidence: Evidence };
      triggers: readonly Trigger[];
    }
  | { ok: false; reason: string; failure?: { reason: string; evidence: Evidence } };

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

/** The evidence of one delivery: where it came, its signature header, its body. */
export function deliveryEvidence(
  receiver: Receiver,
  delivery: Delivery,
  diagnostics?: readonly string[],
): Evidence {
  const signature = delivery.headers["x-ha-signature"];
  const evidence: Evidence = {
    request: {
      method: "POST",
      url: receiver.url,
      headers: {
        "x-ha-signature": Array.isArray(signature) ? signature.join(", ") : (signature ?? "(missing)"),
        "content-type": delivery.headers["content-type"] ?? "(missing)",
      },
    },
    response: { status: 200, excerpt: excerptOf(delivery.body.toString("utf8")) },
  };
  return diagnostics && diagnostics.length > 0 ? { ...evidence, diagnostics } : evidence;
}

/** Why notifications cannot be exercised against this target, if they cannot. */
export function notificationPrerequisites(ctx: CheckContext): string | undefined {
  if (!ctx.states) return "the target offers no provider states (--state-url) to trigger notifications";
  const host = new URL(ctx.options.target).hostname;
  if (!LOOPBACK.has(host)) {
    return `the runner's receiver listens on 127.0.0.1, which ${host} cannot reach`;
  }
  return undefined;
}

async function readKey(ctx: CheckContext, receiver: Receiver) {
  const partner = await ctx.http.send({
    method: "GET",
    url: await ctx.urlOf(ctx.contract.routes.byId("v5.partner-info")),
    authorization: await ctx.authorization("reader"),
  });
  const parsed = isSuccess(partner.status) ? parseJson(partner) : undefined;
  const list = parsed?.ok
    ? (parsed.value as { urlNotificationList?: unknown }).urlNotificationList
    : undefined;
  const entry = Array.isArray(list)
    ? (list as { url?: unknown; signatureKey?: unknown }[]).find((e) => e?.url === receiver.url)
    : undefined;
  if (entry && typeof entry.signatureKey === "string" && entry.signatureKey !== "") {
    return { key: entry.signatureKey };
  }
  return {
    key: undefined,
    keyProblem: {
      reason: `partner information gives no signatureKey for the registered URL ${receiver.url}`,
      evidence: evidenceOf(partner, entry ?? (parsed?.ok ? parsed.value : undefined)),
    },
  };
}

/**
 * Once per run: starts a receiver, registers it through the notification URL route, reads its key from
 * partner information, then sets up each state that triggers notifications and waits (bounded) for them.
 */
export function notificationSession(ctx: CheckContext): Promise<NotificationSession> {
  return ctx.memo.get<NotificationSession>("fixture:notifications", async () => {
    const missing = notificationPrerequisites(ctx);
    if (missing || !ctx.states) return { ok: false, reason: missing ?? "no provider states" };
    const states = ctx.states;
    const receiver = await startReceiver();
    ctx.onClose(() => receiver.close());
    const registration = await ctx.http.send({
      method: "PUT",
      url: await ctx.urlOf(ctx.contract.routes.byId("v5.notification-url")),
      authorization: await ctx.authorization("reader"),
      body: { contentType: "application/json", text: JSON.stringify({ url: receiver.url }) },
    });
    if (!isSuccess(registration.status)) {
      const reason = `registering the receiver was refused with ${registration.status}`;
      return { ok: false, reason, failure: { reason, evidence: evidenceOf(registration) } };
    }
    const { key, keyProblem } = await readKey(ctx, receiver);
    const triggers: Trigger[] = [];
    const byState = new Map<string, NotificationType[]>();
    for (const type of ctx.contract.notificationTypes) {
      byState.set(type.trigger, [...(byState.get(type.trigger) ?? []), type]);
    }
    for (const [state, expected] of byState) {
      const before = receiver.deliveries().length;
      const answer = await states.setup(state);
      if (!answer.ok) {
        triggers.push({ state, expected, deliveries: [], refused: answer.reason });
        continue;
      }
      ctx.progress.update("notifications", `waiting for ${expected.map((t) => t.eventType).join(", ")}`);
      await receiver.waitFor(before + expected.length, ctx.options.notificationTimeoutMs, ctx.signal);
      triggers.push({ state, expected, deliveries: receiver.deliveries().slice(before) });
    }
    ctx.progress.done();
    return keyProblem
      ? { ok: true, receiver, key, keyProblem, triggers }
      : { ok: true, receiver, key, triggers };
  });
}
