import { offLoopback } from "../core/http/loopback.js";
import { signNotification } from "../core/notification-signature.js";
import type { Registration } from "./data/model.js";
import type { SandboxOptions } from "./index.js";
import type { Store } from "./store.js";

/** Waits between attempts: 4 attempts in all, about 3 s from first to last. */
const RETRY_DELAYS_MS = [200, 700, 2000] as const;
const ATTEMPT_TIMEOUT_MS = 5_000;
const KEPT_DELIVERIES = 500;

/** One notification sent to one URL, with every attempt. */
export interface Delivery {
  id: number;
  url: string;
  eventType: string;
  /** The exact bytes sent (UTF-8), which the signature covers. */
  body: string;
  signature: string;
  /** Each attempt: its real time (ISO), and the status answered or the error met. */
  attempts: { at: string; status?: number; error?: string }[];
  /** `skipped`: never sent, the URL is off this machine and `--notify-any-host` was not given. */
  state: "pending" | "delivered" | "failed" | "skipped";
  /** Why it was skipped (with `state: "skipped"`). */
  skipped?: string;
}

/** One notification as emitted, before it fans out to the matching URLs. */
export interface Emission {
  eventType: string;
  organizationSlug: string | null;
  body: string;
  signature: string;
  signatureKey: string;
}

/** The flag that lets the sandbox deliver notifications off this machine. */
export const NOTIFY_ANY_HOST_FLAG = "--notify-any-host";

/**
 * Notifications as the sandbox's options write, sign (the three faults that touch them,
 * `bad-notification-envelope`, `wrong-signing-key`, `other-url-key`) and deliver them, to the URLs
 * registered in `store`. A notification emitted while no URL is registered is signed with a default key.
 */
export function createNotifier(store: Store, options: SandboxOptions) {
  const delays = options.notificationRetryDelaysMs ?? RETRY_DELAYS_MS;
  const defaultKey = store.derive("default-signature-key").slice(0, 32);
  let log: Delivery[] = [];
  let emissions: Emission[] = [];
  let nextId = 1;
  let closed = false;
  const timers = new Map<NodeJS.Timeout, () => void>();
  const controllers = new Set<AbortController>();
  const pending = new Set<Promise<void>>();
  const told = new Set<string>();

  /** The reason a URL is not delivered to (off this machine, not allowed), decided before any connection. */
  const skipReason = (url: string): string | undefined => {
    if (options.notifyAnyHost === true) return undefined;
    const off = offLoopback(url);
    return off === undefined
      ? undefined
      : `notification to ${url} not sent: ${off}; the sandbox delivers only to this machine unless started with ${NOTIFY_ANY_HOST_FLAG}`;
  };

  const attempt = async (delivery: Delivery): Promise<boolean> => {
    const controller = new AbortController();
    controllers.add(controller);
    const timeout = setTimeout(() => controller.abort(), ATTEMPT_TIMEOUT_MS);
    try {
      const response = await fetch(delivery.url, {
        method: "POST",
        headers: {
          "content-type": "application/json; charset=utf-8",
          "x-ha-signature": delivery.signature,
          "user-agent": "assopay-sandbox-notifications",
        },
        body: delivery.body,
        signal: controller.signal,
      });
      await response.arrayBuffer().catch(() => undefined);
      delivery.attempts.push({ at: new Date().toISOString(), status: response.status });
      return response.status >= 200 && response.status < 300;
    } catch (error) {
      delivery.attempts.push({ at: new Date().toISOString(), error: (error as Error).message });
      return false;
    } finally {
      clearTimeout(timeout);
      controllers.delete(controller);
    }
  };

  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.set(timer, resolve);
    });

  const run = async (delivery: Delivery) => {
    await wait(0);
    for (let round = 0; round <= delays.length && !closed; round++) {
      if (await attempt(delivery)) {
        delivery.state = "delivered";
        return;
      }
      const delay = delays[round];
      if (delay === undefined || closed) break;
      await wait(delay);
    }
    delivery.state = "failed";
  };

  const start = (delivery: Delivery) => {
    const task = run(delivery).finally(() => pending.delete(task));
    pending.add(task);
  };

  return {
    /** Sends a notification to every matching URL, in the background. Never waits for a receiver. */
    emit(organizationSlug: string | null, eventType: string, data: unknown, metadata?: unknown): Delivery[] {
      const targets = new Map<string, Registration>();
      for (const r of store.registrations) {
        const scoped = r.organizationSlug === null || r.organizationSlug === organizationSlug;
        const typed =
          r.notificationType === null || r.notificationType.toLowerCase() === eventType.toLowerCase();
        if (scoped && typed && !targets.has(`${r.url} ${r.signatureKey}`))
          targets.set(`${r.url} ${r.signatureKey}`, r);
      }
      const envelope =
        options.fault === "bad-notification-envelope"
          ? { type: eventType, payload: data }
          : { data, eventType, ...(metadata === undefined ? {} : { metadata }) };
      const body = JSON.stringify(envelope);
      const keys = [...targets.values()].map((t) => t.signatureKey);
      const signingKey = (key: string) => {
        if (options.fault === "wrong-signing-key") return `${key}-previous`;
        if (options.fault !== "other-url-key") return key;
        const others = [...keys, ...store.registrations.map((r) => r.signatureKey)];
        return others.find((k) => k !== key) ?? defaultKey;
      };
      const firstKey = keys[0] ?? defaultKey;
      emissions.push({
        eventType,
        organizationSlug,
        body,
        signature: signNotification(body, signingKey(firstKey)),
        signatureKey: firstKey,
      });
      if (emissions.length > KEPT_DELIVERIES) emissions = emissions.slice(-KEPT_DELIVERIES);
      const sent: Delivery[] = [];
      for (const target of targets.values()) {
        const key = signingKey(target.signatureKey);
        const delivery: Delivery = {
          id: nextId++,
          url: target.url,
          eventType,
          body,
          signature: signNotification(body, key),
          attempts: [],
          state: "pending",
        };
        const skipped = skipReason(target.url);
        if (skipped !== undefined) {
          delivery.state = "skipped";
          delivery.skipped = skipped;
          if (!told.has(target.url)) options.onNotice?.(skipped);
          told.add(target.url);
        }
        log.push(delivery);
        if (log.length > KEPT_DELIVERIES) log = log.slice(-KEPT_DELIVERIES);
        sent.push(delivery);
        if (!closed && skipped === undefined) start(delivery);
      }
      return sent;
    },
    deliveries: (): readonly Delivery[] => log,
    /**
     * Every notification emitted, sent or not (no URL may match): the body and its signature with the
     * first matching URL's key, or the default key. What a Pact message verification reads.
     */
    emitted: (): readonly Emission[] => emissions,
    /** Resolves once nothing is pending (tests). */
    async settled() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
    /** Forgets the log (deliveries under way finish). */
    reset() {
      log = [];
      emissions = [];
    },
    close() {
      closed = true;
      for (const [timer, resolve] of timers) {
        clearTimeout(timer);
        resolve();
      }
      timers.clear();
      for (const controller of controllers) controller.abort();
    },
  };
}

export type Notifier = ReturnType<typeof createNotifier>;
