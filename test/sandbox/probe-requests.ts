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

/**
 * The orders the form's items name (`order.id`) that its orders listing lacks, each crawled at pageSize
 * 100; undefined unless both ended.
 */
export async function ordersNamedButUnlisted(h: Harness): Promise<number[] | undefined> {
  const [items, orders] = await Promise.all(
    (["items", "orders"] as const).map((kind) =>
      crawl(h, h.formPath(kind), { pageSize: "100" }, 30).catch(() => undefined),
    ),
  );
  if (!items?.ended || !orders?.ended) return undefined;
  const listed = new Set(orders.ids);
  const named = items.pages.flatMap((page) =>
    ((page.data ?? []) as { order?: { id?: unknown } }[]).map((entry) => entry.order?.id),
  );
  return named.filter((id): id is number => typeof id === "number" && !listed.has(id));
}

/** The statuses `path` answers with each `authorization` header (none for ""). */
export const statusesOf = (h: Harness, path: string, headers: readonly string[]) =>
  Promise.all(
    headers.map(
      async (header) =>
        (await fetch(`${h.url}${path}`, { headers: header ? { authorization: header } : {} })).status,
    ),
  );
