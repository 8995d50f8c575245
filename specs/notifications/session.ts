import type { NotificationType } from "../../contracts/index.js";
import { freshIntent } from "../checkout/checkout-fixture.js";
import { CARDS, leadsTo, openPage, payOnce } from "../checkout/checkout-page.js";
import type { CheckContext } from "../runner/context.js";
import { excerptOf } from "../runner/http.js";
import type { Evidence } from "../runner/types.js";
import { type Delivery, type Receiver, startReceiver } from "./receiver.js";
import { type Registered, register, restore } from "./registration.js";

/** The notifications one event triggered. */
export interface Trigger {
  /** What caused the event: a provider state's name, or what verify did through the API. */
  state: string;
  /** The contract's notification types this event emits (empty: any event that came). */
  expected: readonly NotificationType[];
  /** Deliveries that arrived after the event was caused. */
  deliveries: readonly Delivery[];
  /** Set when the event could not be caused (or none came). */
  refused?: string;
}

export type NotificationSession =
  | {
      ok: true;
      receiver: Receiver;
      /** The URLs registered (partner-wide, and for the organization when the target took it). */
      registered: readonly Registered[];
      triggers: readonly Trigger[];
      /** How the earlier registrations were put back. */
      restored: string;
    }
  | { ok: false; reason: string; failure?: { reason: string; evidence: Evidence } };

/** The state whose notifications a checkout paid through the hosted page also emits. */
const PAID = "an order is paid";
const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

/** The evidence of one delivery: where it came, its signature header, its body. */
export function deliveryEvidence(
  receiver: Receiver,
  delivery: Delivery,
  diagnostics?: readonly string[],
): Evidence {
  const signature = delivery.headers["x-ha-signature"];
  const name = receiver.nameOf(delivery);
  const evidence: Evidence = {
    request: {
      method: "POST",
      url: name === "" ? receiver.url : receiver.urlFor(name),
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
  if (ctx.options.receiverUrl !== undefined) return undefined;
  const host = new URL(ctx.options.target).hostname;
  if (LOOPBACK.has(host)) return undefined;
  return `the runner's receiver listens on 127.0.0.1, which ${host} cannot reach: give --receiver-url (a public address, such as a tunnel, forwarding to --receiver-port)`;
}

function byTrigger(ctx: CheckContext): Map<string, NotificationType[]> {
  const map = new Map<string, NotificationType[]>();
  for (const type of ctx.contract.notificationTypes)
    map.set(type.trigger, [...(map.get(type.trigger) ?? []), type]);
  return map;
}

/** With states: each state that triggers notifications, in turn. */
async function stateTriggers(ctx: CheckContext, receiver: Receiver, copies: number): Promise<Trigger[]> {
  const triggers: Trigger[] = [];
  for (const [state, expected] of byTrigger(ctx)) {
    const before = receiver.deliveries().length;
    const answer = await ctx.states?.setup(state);
    if (!answer?.ok) {
      triggers.push({ state, expected, deliveries: [], refused: answer?.reason ?? "no provider states" });
      continue;
    }
    ctx.progress.update("notifications", `waiting for ${expected.map((t) => t.eventType).join(", ")}`);
    await receiver.waitFor(before + expected.length * copies, ctx.options.notificationTimeoutMs, ctx.signal);
    triggers.push({ state, expected, deliveries: receiver.deliveries().slice(before) });
  }
  return triggers;
}

/**
 * Without states: a checkout paid through the hosted page (the event an integrator can cause), or, when
 * that cannot be done, a bounded wait for any event.
 */
async function apiTrigger(ctx: CheckContext, receiver: Receiver, copies: number): Promise<Trigger> {
  const before = receiver.deliveries().length;
  const expected = byTrigger(ctx).get(PAID) ?? [];
  const intent = await freshIntent(ctx);
  let why: string;
  if (intent.ok) {
    const page = await openPage(ctx, intent.redirectUrl);
    const paid = page.payUrl ? await payOnce(ctx, page.payUrl, CARDS.success) : undefined;
    if (paid && leadsTo(paid, intent.urls.returnUrl)) {
      ctx.progress.update("notifications", `waiting for ${expected.map((t) => t.eventType).join(", ")}`);
      await receiver.waitFor(
        before + expected.length * copies,
        ctx.options.notificationTimeoutMs,
        ctx.signal,
      );
      const state = `a checkout paid through the hosted page (intent ${intent.checkoutIntentId})`;
      return { state, expected, deliveries: receiver.deliveries().slice(before) };
    }
    why = paid
      ? `paying checkout intent ${intent.checkoutIntentId} did not succeed (${paid.status})`
      : "the checkout page has no payment form this runner can post";
  } else {
    why = intent.reason;
  }
  const seconds = ctx.options.eventWaitMs / 1000;
  ctx.progress.update("notifications", `waiting ${seconds} s for any event`);
  await receiver.waitFor(before + 1, ctx.options.eventWaitMs, ctx.signal);
  const deliveries = receiver.deliveries().slice(before);
  const state = `any event within ${seconds} s (no event could be caused: ${why})`;
  const refused = `no notification came within ${seconds} s, and none could be caused: ${why}`;
  return { state, expected: [], deliveries, ...(deliveries.length > 0 ? {} : { refused }) };
}

/**
 * Once per run: starts a receiver, registers it partner-wide and for the organization (two URLs, two
 * keys), causes the events (provider states, or a paid checkout through the API), waits (bounded) for
 * their notifications, then puts the earlier registrations back.
 */
export function notificationSession(ctx: CheckContext): Promise<NotificationSession> {
  return ctx.memo.get<NotificationSession>("fixture:notifications", async () => {
    const missing = notificationPrerequisites(ctx);
    if (missing) return { ok: false, reason: missing };
    const receiver = await startReceiver({
      port: ctx.options.receiverPort,
      publicUrl: ctx.options.receiverUrl,
    });
    ctx.onClose(() => receiver.close());
    const registered: Registered[] = [];
    let triggers: Trigger[];
    try {
      const partner = await register(ctx, "partner", receiver.urlFor("partner"), { kind: "partner" });
      if (!partner.ok) return { ok: false, reason: partner.reason, failure: partner };
      registered.push(partner.registered);
      const { organizationSlug } = await ctx.coordinates();
      const scoped = await register(ctx, "organization", receiver.urlFor("organization"), {
        kind: "organization",
        organizationSlug,
      });
      if (scoped.ok) registered.push(scoped.registered);
      const copies = registered.length;
      triggers = ctx.states
        ? await stateTriggers(ctx, receiver, copies)
        : [await apiTrigger(ctx, receiver, copies)];
    } catch (error) {
      await restore(ctx, registered).catch(() => undefined);
      throw error;
    } finally {
      ctx.progress.done();
    }
    const restored = await restore(ctx, registered);
    return { ok: true, receiver, registered, triggers, restored };
  });
}
