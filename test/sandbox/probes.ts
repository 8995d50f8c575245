import { createHmac } from "node:crypto";
import { contract, type Harness, type Page, type Receiver } from "./helpers.js";

/** What a probe concluded about its rule. `skip`: it could not judge (another rule got in the way). */
export type Verdict = "ok" | "broken" | "skip";

export interface ProbeContext {
  h: Harness;
  hook: Receiver;
}

const ENTRY_PAGE = 10;

/** Back to the seeded start at a day, with fresh tokens. */
async function at(h: Harness, date: string): Promise<void> {
  await h.send("POST", "/_states", { action: "teardown" }, "none");
  await h.clock({ day: date });
  h.forgetTokens();
}

const verdict = (broken: boolean): Verdict => (broken ? "broken" : "ok");

async function firstPage(h: Harness, query: string): Promise<Page> {
  return (await h.json<Page>(`${h.formPath("items")}?pageSize=${ENTRY_PAGE}${query}`)).body;
}

/** A bounded crawl: `ended` is false when no empty page came within the bound or a call failed. */
async function crawlBounded(h: Harness, query = "", bound = 12) {
  const ids: number[] = [];
  const sizes: number[] = [];
  let token: string | undefined;
  for (let n = 0; n < bound; n++) {
    const suffix = token === undefined ? "" : `&continuationToken=${encodeURIComponent(token)}`;
    const response = await h.get(`${h.formPath("items")}?pageSize=${ENTRY_PAGE}${query}${suffix}`);
    if (response.status !== 200) return { ids, sizes, ended: false, failed: true };
    const page = (await response.json()) as Page;
    const entries = (page.data ?? []) as { id: number }[];
    if (entries.length === 0) return { ids, sizes, ended: true, failed: false };
    ids.push(...entries.map((e) => e.id));
    sizes.push(entries.length);
    token = page.pagination.continuationToken ?? undefined;
    if (token === undefined) return { ids, sizes, ended: false, failed: false };
  }
  return { ids, sizes, ended: false, failed: false };
}

async function notifications(
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

const checkoutBody = {
  totalAmount: 1000,
  initialAmount: 1000,
  itemName: "Probe",
  backUrl: "https://integrator.example/back",
  errorUrl: "https://integrator.example/error",
  returnUrl: "https://integrator.example/return",
  containsDonation: false,
};

async function intent(h: Harness, slug = h.sandbox.credentials.organizationSlug) {
  const response = await h.send("POST", `/v5/organizations/${slug}/checkout-intents`, checkoutBody);
  return { status: response.status, body: (await response.json()) as { id: number; redirectUrl: string } };
}

async function pay(redirectUrl: string, card: string) {
  const response = await fetch(`${redirectUrl}/pay`, {
    method: "POST",
    headers: { accept: "application/json", "content-type": "application/x-www-form-urlencoded" },
    body: `cardNumber=${card}`,
  });
  return (await response.json()) as { outcome: string; redirectUrl?: string };
}

const v5GetPaths = (h: Harness, order: Record<string, unknown>, intentId: number) => {
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
    return crawl.failed ? "skip" : verdict(!crawl.ended);
  },
  "pagination.token-echoed": async ({ h }) => {
    await at(h, "2025-04-01");
    const first = await firstPage(h, "");
    const token = first.pagination.continuationToken ?? "";
    const response = await h.get(
      `${h.formPath("items")}?pageSize=${ENTRY_PAGE}&continuationToken=${encodeURIComponent(token)}`,
    );
    if (response.status !== 200) return "broken";
    const seen = new Set(((first.data ?? []) as { id: number }[]).map((e) => e.id));
    const next = ((((await response.json()) as Page).data ?? []) as { id: number }[]).map((e) => e.id);
    return verdict(!next.some((id) => !seen.has(id)));
  },
  "pagination.no-duplicates": async ({ h }) => {
    await at(h, "2025-04-01");
    const { ids } = await crawlBounded(h);
    return verdict(new Set(ids).size !== ids.length);
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
  "auth.tokens": async ({ h }) => {
    await at(h, "2025-07-01");
    const path = h.formPath("items");
    const token = await h.token("reader");
    const altered = `${token.slice(0, -3)}abc`;
    const statuses = await Promise.all(
      ["", "Bearer undefined", `Bearer ${altered}`].map(
        async (header) =>
          (await fetch(`${h.url}${path}`, { headers: header ? { authorization: header } : {} })).status,
      ),
    );
    const order = await h.state("an order with an attached file");
    const forbidden = (await h.get(String(order.orderDetailPath), "reader")).status;
    return verdict(statuses.some((s) => s !== 401) || forbidden !== 403);
  },
};
