// What the sandbox probes do against a running sandbox: reset it to a day, crawl a listing, collect the
// notifications it sends, pay through the hosted checkout, crawl a form's listing and its organization's
// side by side, ask one path with several authorization headers. The probes themselves are in probes.ts.
import { contract, crawl, type Harness, type Page, type Receiver } from "./helpers.js";

/** What a probe concluded about its rule. `skip`: it could not judge (another rule got in the way). */
export type Verdict = "ok" | "broken" | "skip";

export interface ProbeContext {
  h: Harness;
  hook: Receiver;
}

export const ENTRY_PAGE = 10;

/** Back to the seeded start at a day, with fresh tokens. */
export async function at(h: Harness, date: string): Promise<void> {
  await h.send("POST", "/_states", { action: "teardown" }, "none");
  await h.clock({ day: date });
  h.forgetTokens();
}

export const verdict = (broken: boolean): Verdict => (broken ? "broken" : "ok");

export async function firstPage(h: Harness, query: string): Promise<Page> {
  return (await h.json<Page>(`${h.formPath("items")}?pageSize=${ENTRY_PAGE}${query}`)).body;
}

/**
 * A bounded crawl of the form's items at `size` per page: `ended` is false when no empty page came within
 * the bound (`end` says why), `failed` when a call was refused.
 */
export async function crawlBounded(h: Harness, query = "", bound = 12, size = ENTRY_PAGE) {
  const params = Object.fromEntries(new URLSearchParams(`pageSize=${size}${query}`));
  try {
    const result = await crawl(h, h.formPath("items"), params, bound);
    return { ...result, failed: false };
  } catch {
    return { ids: [], sizes: [], ended: false, end: "bound" as const, failed: true };
  }
}

/**
 * The entries a crawl at `size` lost against a crawl at the largest size: `middle` ones (an entry of the
 * crawl comes after them), `tail` ones (after its last entry), and how the crawl ended.
 */
export async function lostAtSize(h: Harness, size: number) {
  const all = await crawlBounded(h, "", 30, 100);
  const part = await crawlBounded(h, "", 30, size);
  const kept = new Set(part.ids);
  const lastKept = all.ids.findLastIndex((id) => kept.has(id));
  const missing = all.ids.map((id, at) => ({ id, at })).filter(({ id }) => !kept.has(id));
  return {
    failed: all.failed || part.failed || !all.ended,
    end: part.end,
    middle: missing.filter(({ at }) => at < lastKept).length,
    tail: missing.filter(({ at }) => at > lastKept).length,
  };
}

/** Each item of the form's listing as JSON text, by id, crawled at `pageSize`; undefined if the crawl did not end. */
export async function itemsReadAt(h: Harness, pageSize: string): Promise<Map<number, string> | undefined> {
  const walked = await crawl(h, h.formPath("items"), { pageSize }, 60).catch(() => undefined);
  const entries = (walked?.pages ?? []).flatMap((p) => (p.data ?? []) as { id: number }[]);
  return walked?.ended ? new Map(entries.map((e) => [e.id, JSON.stringify(e)])) : undefined;
}

export async function notifications(
  ctx: ProbeContext,
): Promise<{ body: string; signature: string | undefined; key: string }[]> {
  const { h, hook } = ctx;
  await at(h, "2025-07-01");
  hook.received.length = 0;
  await h.state("a partner with a notification URL", { url: hook.url });
  const partner = await h.json<{ urlNotificationList: { url: string; signatureKey: string }[] }>(
    "/v5/partners/me",
  );
  const key = partner.body.urlNotificationList.find((u) => u.url === hook.url)?.signatureKey ?? "";
  await h.state("an order is paid");
  await h.state("a refund is refused");
  await hook.waitFor(3);
  return hook.received.map((r) => ({ ...r, key }));
}

export const checkoutBody = {
  totalAmount: 1000,
  initialAmount: 1000,
  itemName: "Probe",
  backUrl: "https://integrator.example/back",
  errorUrl: "https://integrator.example/error",
  returnUrl: "https://integrator.example/return",
  containsDonation: false,
};

export async function intent(h: Harness, slug = h.sandbox.credentials.organizationSlug) {
  const response = await h.send("POST", `/v5/organizations/${slug}/checkout-intents`, checkoutBody);
  return { status: response.status, body: (await response.json()) as { id: number; redirectUrl: string } };
}

export async function pay(redirectUrl: string, card: string) {
  const response = await fetch(`${redirectUrl}/pay`, {
    method: "POST",
    headers: { accept: "application/json", "content-type": "application/x-www-form-urlencoded" },
    body: `cardNumber=${card}`,
  });
  return (await response.json()) as { outcome: string; redirectUrl?: string };
}

export const v5GetPaths = (h: Harness, order: Record<string, unknown>, intentId: number) => {
  const c = h.sandbox.credentials;
  const listings = contract()
    .routes.listings()
    .filter((r) => r.version === "v5")
    .map((r) =>
      r.path
        .replace("{organizationSlug}", c.organizationSlug)
        .replace("{formType}", c.formType)
        .replace("{formSlug}", c.formSlug),
    );
  return [
    ...listings,
    `/v5/organizations/${c.organizationSlug}/forms/Membership/adhesion-2025/public`,
    String(order.orderDetailPath),
    String(order.filePath),
    "/v5/partners/me",
    `/v5/organizations/${c.organizationSlug}/checkout-intents/${intentId}`,
  ];
};

/** The organization's listing of the same kind as a form's listing at `path`. */
export const organizationPath = (path: string) => path.replace(/\/forms\/[^/]+\/[^/]+\//, "/");

/** The form's orders and its organization's, each crawled at pageSize 100; undefined unless both ended. */
export async function ordersOfBoth(h: Harness) {
  const orders = h.formPath("orders");
  const [form, organization] = await Promise.all(
    [orders, organizationPath(orders)].map((path) =>
      crawl(h, path, { pageSize: "100" }, 30).catch(() => undefined),
    ),
  );
  return form?.ended && organization?.ended ? { form, organization } : undefined;
}

/** The ids of the objects at `key` of each entry (`order`, `items`): one object or a list of them. */
const idsAt = (entries: readonly Record<string, unknown>[], key: string): unknown[] =>
  entries.flatMap((entry) => {
    const at = entry[key];
    return (Array.isArray(at) ? at : [at]).map((object) => (object as { id?: unknown } | undefined)?.id);
  });

/**
 * What the form's listings name that its other listing lacks: the orders its items name (`order.id`)
 * that its orders listing lacks, and the items its orders name (`items[].id`) that its items listing
 * holds nowhere (an entry's own id or one of its `items`), each crawled at pageSize 100; undefined
 * unless all ended.
 */
export async function namedButUnlisted(
  h: Harness,
): Promise<{ orders: number[]; items: number[] } | undefined> {
  const [items, orders] = await Promise.all(
    (["items", "orders"] as const).map((kind) =>
      crawl(h, h.formPath(kind), { pageSize: "100" }, 30).catch(() => undefined),
    ),
  );
  if (!items?.ended || !orders?.ended) return undefined;
  const entries = (pages: typeof items.pages) =>
    pages.flatMap((page) => (page.data ?? []) as Record<string, unknown>[]);
  const unlisted = (named: unknown[], listed: Set<unknown>) =>
    named.filter((id): id is number => typeof id === "number" && !listed.has(id));
  const itemEntries = entries(items.pages);
  return {
    orders: unlisted(idsAt(itemEntries, "order"), new Set(orders.ids)),
    items: unlisted(
      idsAt(entries(orders.pages), "items"),
      new Set([...items.ids, ...idsAt(itemEntries, "items")]),
    ),
  };
}

/** The statuses `path` answers with each `authorization` header (none for ""). */
export const statusesOf = (h: Harness, path: string, headers: readonly string[]) =>
  Promise.all(
    headers.map(
      async (header) =>
        (await fetch(`${h.url}${path}`, { headers: header ? { authorization: header } : {} })).status,
    ),
  );
