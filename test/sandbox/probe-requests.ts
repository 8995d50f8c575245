// Requests two or more probes make alike: a form's listing and its organization's crawled side by side,
// one path asked with several authorization headers. The probes themselves are in probes.ts.
import { crawl, type Harness } from "./helpers.js";

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
