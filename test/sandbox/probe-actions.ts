// What the sandbox probes do against a running sandbox: reset it to a day, crawl a listing, collect the
// notifications it sends, pay through the hosted checkout. The probes themselves are in probes.ts.
import { contract, type Harness, type Page, type Receiver } from "./helpers.js";

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

/** A bounded crawl: `ended` is false when no empty page came within the bound or a call failed. */
export async function crawlBounded(h: Harness, query = "", bound = 12) {
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
