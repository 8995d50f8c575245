import type { Route } from "../contracts/index.js";
import type { SandboxCore } from "./core.js";
import type { CheckoutRequest } from "./data/model.js";
import { type Exchange, readJson, sendJson } from "./http.js";

/** One error of the service's envelope: `{"code": "Error", "message": "Code : CODE - message"}`. */
export interface ServiceError {
  code: string;
  message: string;
}

/** An error as the service words it (`refund-error-envelope-devdocs.json`): the code inside the message. */
export function serviceError(code: string, message: string): ServiceError {
  return { code: "Error", message: `Code : ${code} - ${message}` };
}

/** Answers `{"errors": [...]}`, the service's error envelope. */
export function sendServiceErrors(ex: Exchange, status: number, errors: readonly ServiceError[]): void {
  sendJson(ex, status, { errors });
}

const isInteger = (value: unknown): value is number => typeof value === "number" && Number.isInteger(value);

/**
 * The amount rule, checked before anything else as the service does: `totalAmount = initialAmount + Σ
 * terms[].amount`. `undefined` when the amounts agree or cannot be summed yet (the schema then speaks).
 */
export function amountMismatch(body: unknown): ServiceError | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const { totalAmount, initialAmount, terms } = body as Record<string, unknown>;
  if (!isInteger(totalAmount) || !isInteger(initialAmount)) return undefined;
  const list = terms === undefined || terms === null ? [] : terms;
  if (!Array.isArray(list)) return undefined;
  let sum = initialAmount;
  for (const term of list) {
    const amount = (term as { amount?: unknown } | null)?.amount;
    if (!isInteger(amount)) return undefined;
    sum += amount;
  }
  if (sum === totalAmount) return undefined;
  return serviceError(
    "InvalidAmount",
    `totalAmount (${totalAmount}) must equal initialAmount plus the terms (${sum}).`,
  );
}

/**
 * Reads a checkout intent request: the amounts first, then the route's request schema (which takes a
 * term's date as a plain date or a date-time with or without offset, as the service does). A problem is
 * answered with 400 in the service's error envelope and gives `undefined`.
 */
export async function readCheckoutRequest(
  core: SandboxCore,
  ex: Exchange,
  route: Route,
): Promise<CheckoutRequest | undefined> {
  const parsed = await readJson(ex);
  if (!parsed.ok) return undefined;
  const mismatch = amountMismatch(parsed.value);
  if (mismatch) {
    sendServiceErrors(ex, 400, [mismatch]);
    return undefined;
  }
  const diagnostics = core.contract.schemas.validate(route.requestBody?.schema ?? "", parsed.value, "body");
  if (diagnostics.length > 0) {
    sendServiceErrors(
      ex,
      400,
      diagnostics.map((d) => serviceError("InvalidRequest", d.message)),
    );
    return undefined;
  }
  return parsed.value as CheckoutRequest;
}

/**
 * The instant of a term's date in ms. A plain date is that day at midnight UTC, a date-time without
 * offset is read as UTC; `fallbackMs` when it cannot be read.
 */
export function termDateMs(date: string, fallbackMs: number): number {
  const needsZone = /T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(date);
  const ms = Date.parse(needsZone ? `${date}Z` : date);
  return Number.isNaN(ms) ? fallbackMs : ms;
}
