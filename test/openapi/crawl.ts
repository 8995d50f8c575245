import { readPage } from "../../contracts/index.js";
import type { Route } from "../../contracts/types.js";
import type { SandboxCredentials } from "../../sandbox/index.js";
import type { Harness, Role } from "../sandbox/helpers.js";

/** One request sent through the proxy and what came back. */
export interface Exchange {
  route: string;
  request: string;
  status: number;
  /** Prism's `sl-violations` header, when it found any. */
  violations: string | undefined;
  body: string;
}

/** A value for each path parameter the catalogue uses, read from the sandbox itself (not through Prism). */
type ParamSource = (h: Harness) => Promise<string>;

async function firstOrderId(h: Harness): Promise<string> {
  const page = await h.json(`/v5/organizations/${h.sandbox.credentials.organizationSlug}/orders?pageSize=1`);
  const read = readPage(page.body, "data");
  const id = read.ok ? read.ids[0] : undefined;
  if (id === undefined) throw new Error("the sandbox has no order to crawl");
  return String(id);
}

/**
 * The id of the first entry of an organization-level listing (items, payments) not refunded yet: the
 * crawl refunds the payment it names, and one sandbox serves the crawls of both dates.
 */
async function firstIdOf(h: Harness, listing: "items" | "payments"): Promise<string> {
  const page = await h.json(
    `/v5/organizations/${h.sandbox.credentials.organizationSlug}/${listing}?pageSize=100`,
  );
  const read = readPage(page.body, "data");
  const entries = (read.ok ? read.entries : []) as { id: number; state?: string }[];
  const id = entries.find((entry) => entry.state !== "Refunded" && entry.state !== "Refunding")?.id;
  if (id === undefined) throw new Error(`the sandbox has no ${listing} entry to crawl`);
  return String(id);
}

async function attachedFile(h: Harness): Promise<{ orderId: string; fileId: string }> {
  const page = await h.json<{ data: { id: number }[] }>(
    `/v5/organizations/${h.sandbox.credentials.organizationSlug}/orders?pageSize=100`,
  );
  for (const order of page.body.data) {
    const detail = await h.get(`/v5/orders/${order.id}`);
    const match = /\/v5\/orders\/(\d+)\/files\/([^"?/]+)/.exec(await detail.text());
    if (match?.[1] && match[2]) return { orderId: match[1], fileId: match[2] };
  }
  throw new Error("no order of the first page has an attached file");
}

const PARAMS: Readonly<Record<string, ParamSource>> = {
  organizationSlug: async (h) => h.sandbox.credentials.organizationSlug,
  formType: async (h) => h.sandbox.credentials.formType,
  formSlug: async (h) => h.sandbox.credentials.formSlug,
  orderId: firstOrderId,
  itemId: (h) => firstIdOf(h, "items"),
  paymentId: (h) => firstIdOf(h, "payments"),
  fileId: async (h) => (await attachedFile(h)).fileId,
  checkoutIntentId: async (h) => {
    const response = await h.send(
      "POST",
      `/v5/organizations/${h.sandbox.credentials.organizationSlug}/checkout-intents`,
      BODIES["checkout-intent-request"]?.(h.sandbox.credentials),
    );
    return String(((await response.json()) as { id: number }).id);
  },
};

/** An order not canceled yet: the crawl cancels the one it names, and one sandbox serves both dates. */
async function cancellableOrderId(h: Harness): Promise<string> {
  const page = await h.json<{ data: { id: number }[] }>(
    `/v5/organizations/${h.sandbox.credentials.organizationSlug}/orders?pageSize=100`,
  );
  for (const order of page.body.data) {
    const detail = await h.json<{ items?: { state?: string }[] }>(`/v5/orders/${order.id}`);
    if (!(detail.body.items ?? []).some((item) => item.state === "Canceled")) return String(order.id);
  }
  throw new Error("every order of the sandbox is canceled already");
}

/** A legal request body for each request schema the catalogue uses. */
const BODIES: Readonly<Record<string, (c: SandboxCredentials) => unknown>> = {
  "token-request": (c) => ({
    grant_type: "client_credentials",
    client_id: c.admin.clientId,
    client_secret: c.admin.clientSecret,
  }),
  "notification-url-request": () => ({ url: "https://partner.example/hooks/assopay" }),
  "checkout-intent-request": () => ({
    totalAmount: 1200,
    initialAmount: 1200,
    itemName: "Membership",
    backUrl: "https://partner.example/back",
    errorUrl: "https://partner.example/error",
    returnUrl: "https://partner.example/return",
    containsDonation: false,
  }),
};

/** The concrete path of a route, every parameter filled from the sandbox; an unknown one fails loudly. */
export async function concretePath(h: Harness, route: Route): Promise<string> {
  let path = route.path;
  // The file route needs an order that has a file, not any order.
  const file = route.pathParams.includes("fileId") ? await attachedFile(h) : undefined;
  for (const name of route.pathParams) {
    const source = PARAMS[name];
    if (!source)
      throw new Error(`route ${route.id}: no value for {${name}}; add one to PARAMS in ${import.meta.url}`);
    const value =
      name === "orderId" && file
        ? file.orderId
        : name === "orderId" && route.id === "v5.order-cancel"
          ? await cancellableOrderId(h)
          : await source(h);
    path = path.replace(`{${name}}`, encodeURIComponent(value));
  }
  return path;
}

/** A legal body for a route that takes one, with its content type; an unknown schema fails loudly. */
export function requestBody(
  credentials: SandboxCredentials,
  route: Route,
): { headers: Record<string, string>; body?: string } {
  if (!route.requestBody) return { headers: {} };
  const make = BODIES[route.requestBody.schema];
  if (!make)
    throw new Error(
      `route ${route.id}: no example body for "${route.requestBody.schema}"; add one to BODIES`,
    );
  const value = make(credentials) as Record<string, string>;
  const type = route.requestBody.contentType;
  const body =
    type === "application/x-www-form-urlencoded" ? String(new URLSearchParams(value)) : JSON.stringify(value);
  return { headers: { "content-type": type }, body };
}

/** Sends one request through the proxy, with the token of a role (or none). */
async function send(
  h: Harness,
  proxy: string,
  route: Route,
  path: string,
  role: Role | "none",
): Promise<Exchange> {
  const { headers, body } = requestBody(h.sandbox.credentials, route);
  if (role !== "none") headers.authorization = `Bearer ${await h.token(role)}`;
  const response = await fetch(`${proxy}${path}`, { method: route.method, headers, body });
  return {
    route: route.id,
    request: `${route.method} ${path} (${role})`,
    status: response.status,
    violations: response.headers.get("sl-violations") ?? undefined,
    body: await response.text(),
  };
}

/**
 * Crawls every route of the catalogue through a proxy: each route with the right it needs, without a token
 * (401) and with a token that lacks the admin role (403), and every listing page by page to its empty page,
 * once plainly and once with `withCount=true`.
 */
export async function crawlCatalogue(
  h: Harness,
  proxy: string,
  routes: readonly Route[],
): Promise<Exchange[]> {
  const exchanges: Exchange[] = [];
  for (const route of routes) {
    const path = await concretePath(h, route);
    const role: Role = route.auth === "organization_admin" ? "admin" : "reader";
    if (route.auth !== "none") exchanges.push(await send(h, proxy, route, path, "none"));
    if (route.auth === "organization_admin") exchanges.push(await send(h, proxy, route, path, "reader"));
    if (!route.pagination) {
      exchanges.push(await send(h, proxy, route, path, route.auth === "none" ? "none" : role));
      continue;
    }
    for (const extra of route.countDeprecation ? ["", "&withCount=true"] : [""]) {
      let token: string | undefined;
      for (let page = 0; page < 50; page++) {
        const query = `?pageSize=${route.pagination.maxPageSize}${extra}${token ? `&continuationToken=${encodeURIComponent(token)}` : ""}`;
        const exchange = await send(h, proxy, route, `${path}${query}`, role);
        exchanges.push(exchange);
        if (exchange.status !== 200) break;
        const page = readPage(JSON.parse(exchange.body), route.pagination.resultArray);
        token = page.ok ? page.token : undefined;
        if (!page.ok || page.entries.length === 0 || token === undefined) break;
      }
    }
  }
  return exchanges;
}
