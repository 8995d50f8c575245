import type { ProbeContext, Verdict } from "./probe-actions.js";
import { at, verdict } from "./probe-actions.js";
import { ordersOfBoth, statusesOf } from "./probe-requests.js";

/**
 * The probes of who may read what (rights and authentication), spread into `probes` of probes.ts: one
 * per rule, each saying whether the sandbox under test breaks it.
 */
export const ACCESS_PROBES: Readonly<Record<string, (ctx: ProbeContext) => Promise<Verdict>>> = {
  "rights.order-detail-exposes-files": async ({ h }) => {
    await at(h, "2025-07-01");
    const order = await h.state("an order with an attached file");
    const detail = await h.json<{ items: { customFields?: { type: string; answer?: string }[] }[] }>(
      String(order.orderDetailPath),
    );
    const urls = detail.body.items
      .flatMap((i) => i.customFields ?? [])
      .filter((f) => f.type === "File")
      .map((f) => f.answer);
    return verdict(!urls.includes(String(order.fileUrl)));
  },
  "rights.file-needs-organization-admin": async ({ h }) => {
    await at(h, "2025-07-01");
    const path = String((await h.state("an order with an attached file")).filePath);
    const [admin, none, reader] = await Promise.all([
      h.get(path, "admin"),
      h.get(path, "none"),
      h.get(path, "reader"),
    ]);
    return verdict(admin.status !== 200 || none.ok || reader.ok);
  },
  "rights.own-organization-entries": async ({ h }) => {
    await at(h, "2025-04-01");
    const both = await ordersOfBoth(h);
    if (!both) return "skip";
    const own = h.sandbox.credentials.organizationSlug;
    const slugs = [both.form, both.organization].flatMap((crawled) =>
      crawled.pages.flatMap((p) =>
        ((p.data ?? []) as { organizationSlug?: string }[]).map((e) => e.organizationSlug),
      ),
    );
    return verdict(slugs.some((slug) => slug !== undefined && slug !== own));
  },
  "auth.tokens": async ({ h }) => {
    await at(h, "2025-07-01");
    const path = h.formPath("items");
    const token = await h.token("reader");
    const altered = `${token.slice(0, -3)}abc`;
    const statuses = await statusesOf(h, path, ["", "Bearer undefined", `Bearer ${altered}`]);
    const order = await h.state("an order with an attached file");
    const forbidden = (await h.get(String(order.orderDetailPath), "reader")).status;
    return verdict(statuses.some((s) => s !== 401) || forbidden !== 403);
  },
  "auth.before-routing": async ({ h }) => {
    await at(h, "2025-07-01");
    const path = "/v5/no-such-route";
    const statuses = await statusesOf(h, path, ["", "Bearer undefined"]);
    const known = (await h.get(path, "reader")).status;
    return verdict(statuses.some((s) => s !== 401) || known !== 404);
  },
};
