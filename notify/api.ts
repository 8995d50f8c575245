import { AssopayError } from "../core/errors.js";
import type { Body, KnownPayment } from "./bodies.js";

/** A request the API answered: what a receiver read, and what the API said. */
export interface ApiAnswer {
  readonly method: string;
  readonly path: string;
  readonly status: number;
}

/**
 * The API a receiver reconciles notifications against (`assopay notify` serves the sandbox): notify reads
 * the payments and orders its notifications name from it, and sees which of them the receiver read.
 */
export interface ReconcileApi {
  /** Its root: the token at `/oauth2/token`, the API under `/v5`. */
  readonly url: string;
  /** A client that may read payments and orders (`organization_admin`), and the organization it reads. */
  readonly client: { readonly clientId: string; readonly clientSecret: string };
  readonly organizationSlug: string;
  /** What a receiver run as a command gets besides the API's address: its credentials and names. */
  readonly env: Readonly<Record<string, string>>;
  /** The requests the API answered so far, oldest first. */
  answered(): readonly ApiAnswer[];
}

/** The reads that reconcile a payment or an order: the only requests that confirm a notification. */
export const paymentPath = (id: unknown) => `/v5/payments/${String(id)}`;
export const orderPath = (id: unknown) => `/v5/orders/${String(id)}`;

async function call(api: ReconcileApi, path: string, init: RequestInit): Promise<unknown> {
  const response = await fetch(`${api.url}${path}`, init);
  if (!response.ok) {
    throw new AssopayError(
      "internal",
      `assopay notify: the API a receiver reconciles against answered ${response.status} to ${init.method ?? "GET"} ${path}`,
    );
  }
  return response.json();
}

/**
 * Reads `count` payments of the API's organization and their orders, each to be named by one
 * notification (so that no two cases name the same payment), and an id the API knows no payment by.
 */
export async function readKnownPayments(
  api: ReconcileApi,
  count: number,
): Promise<{ known: readonly KnownPayment[]; unknownPaymentId: number }> {
  const token = (await call(api, "/oauth2/token", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_id: api.client.clientId,
      client_secret: api.client.clientSecret,
    }).toString(),
  })) as { access_token?: string };
  const headers = { authorization: `Bearer ${token.access_token}` };
  const slug = encodeURIComponent(api.organizationSlug);
  const page = (await call(api, `/v5/organizations/${slug}/payments?pageSize=${count}`, { headers })) as {
    data?: Body[];
  };
  const payments = (page.data ?? []).slice(0, count);
  if (payments.length < count) {
    throw new AssopayError(
      "internal",
      `assopay notify: the API lists ${payments.length} payments of ${api.organizationSlug}, ${count} are needed`,
    );
  }
  const known: KnownPayment[] = [];
  for (const payment of payments) {
    const orderId = (payment.order as { id?: unknown } | undefined)?.id;
    known.push({ payment, order: (await call(api, orderPath(orderId), { headers })) as Body });
  }
  const unknownPaymentId = 1_999_999_999;
  const probe = await fetch(`${api.url}${paymentPath(unknownPaymentId)}`, { headers });
  await probe.body?.cancel();
  if (probe.status !== 404) {
    throw new AssopayError(
      "internal",
      `assopay notify: the API answered ${probe.status} to ${paymentPath(unknownPaymentId)}, meant to name no payment`,
    );
  }
  return { known, unknownPaymentId };
}
