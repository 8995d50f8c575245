import { createHmac } from "node:crypto";
import { malformedDeprecationHeaders, readPage } from "../../contracts/index.js";
import { contract, crawl, type Page } from "./helpers.js";
import {
  at,
  checkoutBody,
  crawlBounded,
  ENTRY_PAGE,
  firstPage,
  intent,
  itemsReadAt,
  lostAtSize,
  namedButUnlisted,
  notifications,
  ordersOfBoth,
  organizationPath,
  type ProbeContext,
  pay,
  statusesOf,
  type Verdict,
  v5GetPaths,
  verdict,
} from "./probe-actions.js";

export type { ProbeContext, Verdict } from "./probe-actions.js";

/** One probe per rule of `contracts/rules.yaml`: does the sandbox under test break it? */
export const probes: Readonly<Record<string, (ctx: ProbeContext) => Promise<Verdict>>> = {
  "schema.responses": async ({ h }) => {
    await at(h, "2025-04-01");
    const diagnostics: unknown[] = [];
    for (const route of contract()
      .routes.listings()
      .filter((r) => r.version === "v5")) {
      const c = h.sandbox.credentials;
      const path = route.path
        .replace("{organizationSlug}", c.organizationSlug)
        .replace("{formType}", c.formType)
        .replace("{formSlug}", c.formSlug);
      const { body } = await h.json(path);
      diagnostics.push(...contract().schemas.validatePage(route, body, "not-applicable"));
    }
    const order = await h.state("an order with an attached file");
    diagnostics.push(
      ...contract().schemas.validate("order-detail", (await h.json(String(order.orderDetailPath))).body),
    );
    return verdict(diagnostics.length > 0);
  },
  "pagination.result-array": async ({ h }) => {
    await at(h, "2025-04-01");
    for (const path of [h.formPath("items"), h.formPath("orders", "v3")]) {
      const { status, body } = await h.json<Record<string, unknown>>(path);
      if (status === 200 && !Array.isArray(body.data) && !Array.isArray(body.items)) return "broken";
    }
    return "ok";
  },
  "pagination.end-is-empty-array": async ({ h }) => {
    await at(h, "2025-04-01");
    const crawl = await crawlBounded(h);
    return crawl.failed ? "skip" : verdict(crawl.end === "bound");
  },
  "pagination.complete": async ({ h }) => {
    await at(h, "2025-04-01");
    const lost = await lostAtSize(h, 7);
    // Or lost at every size: orders the items name that the orders listing never serves, or items the
    // orders name that the items listing never holds.
    const unlisted = await namedButUnlisted(h);
    return lost.failed || !unlisted
      ? "skip"
      : verdict(lost.middle > 0 || unlisted.orders.length > 0 || unlisted.items.length > 0);
  },
  "pagination.empty-page-only-at-end": async ({ h }) => {
    await at(h, "2025-04-01");
    // At 7, and at 44, where the 45 entries are one more than a page (a boundary size).
    const [small, boundary] = [await lostAtSize(h, 7), await lostAtSize(h, 44)];
    if (small.failed || boundary.failed) return "skip";
    const early = (lost: typeof small) => lost.tail > 0 && lost.end === "empty-page";
    return verdict(small.middle === 0 && (early(small) || early(boundary)));
  },
  "pagination.token-until-end": async ({ h }) => {
    await at(h, "2025-04-01");
    const lost = await lostAtSize(h, 7);
    return lost.failed ? "skip" : verdict(lost.middle === 0 && lost.tail > 0 && lost.end === "no-token");
  },
  "pagination.organization-holds-forms": async ({ h }) => {
    await at(h, "2025-04-01");
    const both = await ordersOfBoth(h);
    if (!both) return "skip";
    const held = new Set(both.organization.ids);
    return verdict(both.form.ids.some((id) => !held.has(id)));
  },
  "pagination.form-holds-its-entries": async ({ h }) => {
    await at(h, "2025-04-01");
    const both = await ordersOfBoth(h);
    if (!both) return "skip";
    const { formType, formSlug } = h.sandbox.credentials;
    const named = both.organization.pages.flatMap((p) =>
      ((p.data ?? []) as { id: number; formType?: string; formSlug?: string }[])
        .filter((e) => e.formType === formType && e.formSlug === formSlug)
        .map((e) => e.id),
    );
    const held = new Set(both.form.ids);
    return verdict(named.some((id) => !held.has(id)));
  },
  "pagination.date-window": async ({ h }) => {
    await at(h, "2025-04-01");
    const { body } = await h.json<{ data: { id: number; date: string }[] }>(
      `${h.formPath("orders")}?pageSize=4`,
    );
    const [to, , from] = body.data;
    // Dates without their offset (bad-dates) name no instant: schema.responses' fault, not this rule's.
    if (!to || !from || !/[+-]\d{2}:\d{2}$/.test(from.date)) return "skip";
    const query = { from: from.date, to: to.date, pageSize: "100" };
    const window = await crawl(h, h.formPath("orders"), query, 10).catch(() => undefined);
    if (!window?.ended) return "skip";
    return verdict(
      window.ids.join() !==
        body.data
          .slice(1, 3)
          .map((e) => e.id)
          .join(),
    );
  },
  "pagination.date-order": async ({ h }) => {
    await at(h, "2025-04-01");
    const organization = organizationPath(h.formPath("orders"));
    for (const [query, sign] of [
      [{}, -1],
      [{ sortOrder: "Asc", pageSize: "9" }, 1],
    ] as const) {
      const walked = await crawl(h, organization, query, 60).catch(() => undefined);
      if (!walked?.ended) return "skip";
      const dates = walked.pages.flatMap((p) =>
        ((p.data ?? []) as { date: string }[]).map((e) => Date.parse(e.date)),
      );
      if (dates.some((d, i) => i > 0 && Math.sign(d - (dates[i - 1] as number)) === -sign)) return "broken";
    }
    return "ok";
  },
  "pagination.token-echoed": async ({ h }) => {
    await at(h, "2025-04-01");
    const first = await firstPage(h, "");
    const read = readPage(first, "data");
    const token = (read.ok && read.token) || "";
    const response = await h.get(
      `${h.formPath("items")}?pageSize=${ENTRY_PAGE}&continuationToken=${encodeURIComponent(token)}`,
    );
    if (response.status !== 200) return "broken";
    const seen = new Set(((first.data ?? []) as { id: number }[]).map((e) => e.id));
    const next = ((((await response.json()) as Page).data ?? []) as { id: number }[]).map((e) => e.id);
    return verdict(!next.some((id) => !seen.has(id)));
  },
  "pagination.token-bound": async ({ h }) => {
    await at(h, "2025-04-01");
    const read = readPage(await firstPage(h, ""), "data");
    const token = (read.ok && read.token) || "";
    // The items listing's token, sent with the orders listing of the same form.
    const response = await h.get(`${h.formPath("orders")}?continuationToken=${encodeURIComponent(token)}`);
    return verdict(response.status === 200);
  },
  "pagination.no-duplicates": async ({ h }) => {
    await at(h, "2025-04-01");
    const { ids } = await crawlBounded(h);
    return verdict(new Set(ids).size !== ids.length);
  },
  "pagination.same-entry": async ({ h }) => {
    await at(h, "2025-04-01");
    const [small, whole] = [await itemsReadAt(h, "5"), await itemsReadAt(h, "100")];
    if (!small || !whole) return "skip";
    return verdict([...small].some(([id, text]) => whole.has(id) && whole.get(id) !== text));
  },
  "pagination.page-size": async ({ h }) => {
    await at(h, "2025-04-01");
    const { sizes } = await crawlBounded(h, "", 3);
    const over = await h.get(`${h.formPath("items")}?pageSize=101`);
    return verdict(sizes.some((s) => s > ENTRY_PAGE) || over.status !== 400);
  },
  "counts.minus-one-without-withcount": async ({ h }) => {
    await at(h, "2025-04-01");
    for (const query of ["", "&withCount=false"]) {
      const { pagination } = await firstPage(h, query);
      if (pagination.totalCount !== -1 || pagination.totalPages !== -1) return "broken";
    }
    return "ok";
  },
  "counts.real-with-withcount": async ({ h }) => {
    await at(h, "2025-04-01");
    const crawl = await crawlBounded(h, "&withCount=true");
    if (!crawl.ended || crawl.failed) return "skip";
    // A listing that loses entries while crawled is the completeness rules' to report.
    const lost = await lostAtSize(h, ENTRY_PAGE);
    if (lost.middle + lost.tail > 0) return "skip";
    const { pagination } = await firstPage(h, "&withCount=true");
    const total = new Set(crawl.ids).size;
    const size = Math.max(...crawl.sizes);
    return verdict(pagination.totalCount !== total || pagination.totalPages !== Math.ceil(total / size));
  },
  "counts.absent-after-removal": async ({ h }) => {
    await at(h, "2025-06-15");
    for (const query of ["", "&withCount=true"]) {
      const { pagination } = await firstPage(h, query);
      if ("totalCount" in pagination || "totalPages" in pagination) return "broken";
    }
    return "ok";
  },
  "versions.v3-switched-off": async ({ h }) => {
    await at(h, "2025-07-01");
    return verdict((await h.get(h.formPath("items", "v3"))).status !== 404);
  },
  "versions.v3-served-before-switch-off": async ({ h }) => {
    await at(h, "2025-04-01");
    const response = await h.get(h.formPath("items", "v3"));
    return verdict(response.status !== 200 || !Array.isArray(((await response.json()) as Page).items));
  },
  "versions.v5-unaffected": async ({ h }) => {
    await at(h, "2025-07-01");
    const order = await h.state("an order with an attached file");
    const created = await intent(h);
    for (const path of v5GetPaths(h, order, created.body.id))
      if ((await h.get(path)).status !== 200) return "broken";
    return "ok";
  },
  "versions.deprecation-headers": async ({ h }) => {
    // Before the v3 switch-off: a v3 listing announces it.
    await at(h, "2025-06-15");
    const { headers } = await h.get(h.formPath("items", "v3"), "reader");
    return verdict(malformedDeprecationHeaders((name) => headers.get(name) ?? undefined).length > 0);
  },
  "public-form.custom-fields-and-options": async ({ h }) => {
    await at(h, "2025-07-01");
    const path = String((await h.state("a form with custom fields and options and no order")).publicFormPath);
    const form = (
      await h.json<{ customFields?: { type: string }[]; extraOptions?: unknown[] }>(path, "reader")
    ).body;
    return verdict(
      !form.customFields?.some((f) => f.type === "File") || (form.extraOptions ?? []).length === 0,
    );
  },
  "notifications.signature": async (ctx) => {
    const received = await notifications(ctx);
    return verdict(
      received.some((r) => r.signature !== createHmac("sha256", r.key).update(r.body).digest("hex")),
    );
  },
  "notifications.payload-schema": async (ctx) => {
    const received = await notifications(ctx);
    return verdict(
      received.some((r) => contract().schemas.validate("notification", JSON.parse(r.body)).length > 0),
    );
  },
  "checkout.window-15-minutes": async ({ h }) => {
    await at(h, "2025-07-01");
    const inTime = await intent(h);
    const late = await intent(h);
    await h.clock({ advanceMinutes: 14 });
    const first = await pay(inTime.body.redirectUrl, "4242424242424242");
    await h.clock({ advanceMinutes: 2 });
    const second = await pay(late.body.redirectUrl, "4242424242424242");
    return verdict(first.outcome !== "succeeded" || second.outcome !== "expired");
  },
  "checkout.unlimited-retries": async ({ h }) => {
    await at(h, "2025-07-01");
    const created = await intent(h);
    for (let i = 0; i < 5; i++) {
      const failed = await pay(created.body.redirectUrl, "4000000000000002");
      if (failed.outcome !== "refused" || failed.redirectUrl) return "broken";
    }
    return verdict((await pay(created.body.redirectUrl, "4242424242424242")).outcome !== "succeeded");
  },
  "checkout.back-url": async ({ h }) => {
    await at(h, "2025-07-01");
    const html = await (await fetch((await intent(h)).body.redirectUrl)).text();
    const back = /id="back" href="([^"]*)"/.exec(html)?.[1];
    const leave = /const leave = ("[^"]*");/.exec(html)?.[1];
    return verdict(back !== checkoutBody.backUrl || leave !== JSON.stringify(checkoutBody.backUrl));
  },
  "associations.verification": async ({ h }) => {
    await at(h, "2025-06-15");
    const fresh = String((await h.state("a newly registered association")).organizationSlug);
    const refused = (await intent(h, fresh)).status;
    const old = (await intent(h)).status;
    await at(h, "2025-05-10");
    const before = String((await h.state("a newly registered association")).organizationSlug);
    return verdict(refused < 400 || old !== 200 || (await intent(h, before)).status !== 200);
  },
  // Who may read what: rights and authentication.
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
