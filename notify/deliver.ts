import { SIGNATURE_HEADER } from "../core/notification-signature.js";
import { packageVersion } from "../core/paths.js";
import type { Delivery } from "./cases.js";

/** What the receiver answered to one delivery: a status, or why there was none. */
export type DeliveryResult =
  | {
      readonly kind: "answered";
      readonly status: number;
      readonly excerpt: string;
      readonly durationMs: number;
    }
  | {
      readonly kind: "no-answer";
      readonly error: string;
      /** True when nothing listens there at all (refused, unknown host): a usage problem, not a verdict. */
      readonly unreachable: boolean;
      /** True when the service's wait ran out first: the service would send the notification again. */
      readonly slow: boolean;
      readonly durationMs: number;
    };

const UNREACHABLE = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);
const EXCERPT = 200;

function errorCode(error: unknown): string | undefined {
  const cause = (error as { cause?: { code?: unknown } }).cause;
  return typeof cause?.code === "string" ? cause.code : undefined;
}

/** POSTs one notification as the service does (JSON, the signature header) and reads the answer. */
export async function deliver(delivery: Delivery, timeoutMs: number): Promise<DeliveryResult> {
  const started = Date.now();
  const headers: Record<string, string> = {
    "content-type": "application/json; charset=utf-8",
    "user-agent": `assopay-notify/${packageVersion()}`,
  };
  if (delivery.signature !== undefined) headers[SIGNATURE_HEADER] = delivery.signature;
  try {
    const response = await fetch(delivery.url, {
      method: "POST",
      headers,
      body: delivery.body,
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    return {
      kind: "answered",
      status: response.status,
      excerpt: text.length > EXCERPT ? `${text.slice(0, EXCERPT)}…` : text,
      durationMs: Date.now() - started,
    };
  } catch (error) {
    const code = errorCode(error);
    const timedOut = (error as Error).name === "TimeoutError";
    return {
      kind: "no-answer",
      error: timedOut
        ? `no answer within the service's wait of ${timeoutMs / 1000} s`
        : `${code ?? (error as Error).message}`,
      unreachable: code !== undefined && UNREACHABLE.has(code),
      slow: timedOut,
      durationMs: Date.now() - started,
    };
  }
}
