import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contract, crawl, day, type Harness, harness, type Page } from "./helpers.js";

describe("sandbox pagination", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness({ at: day("2025-06-15"), entries: 137 });
  });
  afterAll(() => h.close());

  it("hands out opaque tokens holding +, / and =", async () => {
    const { pages } = await crawl(h, h.formPath("items"), { pageSize: "50" });
    for (const page of pages) {
      const token = page.pagination.continuationToken ?? "";
      expect(token).toMatch(/\+/);
      expect(token).toMatch(/\//);
      expect(token).toMatch(/=/);
    }
  });

  it("crawls every order, item and payment listing to an empty array, without duplicates, echoing tokens byte for byte", async () => {
    for (const route of contract()
      .routes.listings()
      .filter((r) => r.version === "v5" && r.countDeprecation)) {
      const path = route.path
        .replace("{organizationSlug}", h.sandbox.credentials.organizationSlug)
        .replace("{formType}", h.sandbox.credentials.formType)
        .replace("{formSlug}", h.sandbox.credentials.formSlug);
      const { ids, pages, ended } = await crawl(h, path, { pageSize: "40" });
      expect(ended, route.id).toBe(true);
      expect(ids).toHaveLength(137);
      expect(new Set(ids).size).toBe(137);
      const last = pages.at(-1) as Page;
      const beforeLast = pages.at(-2) as Page;
      expect(last.data).toEqual([]);
      expect(last.pagination.continuationToken).toBe(beforeLast.pagination.continuationToken);
      for (const page of pages) expect((page.data ?? []).length).toBeLessThanOrEqual(40);
    }
  });

  it("defaults to pages of 20, newest first, and honours sortOrder=Asc", async () => {
    const desc = await h.json<Page>(h.formPath("items"));
    const ids = (desc.body.data as { id: number }[]).map((e) => e.id);
    expect(ids).toHaveLength(20);
    expect(desc.body.pagination.pageSize).toBe(20);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    const asc = await crawl(h, h.formPath("items"), { sortOrder: "Asc", pageSize: "100" });
    expect(asc.ids).toEqual([...asc.ids].sort((a, b) => a - b));
    expect(asc.ids).toHaveLength(137);
  });

  it("honours pageSize up to 100 and refuses more with a 400 in the service's validation shape", async () => {
    expect((await h.json<Page>(`${h.formPath("items")}?pageSize=100`)).body.data).toHaveLength(100);
    for (const size of ["101", "1000", "0", "-3", "abc"]) {
      const { status, body } = await h.json<{ title: string; errors: Record<string, string[]> }>(
        `${h.formPath("items")}?pageSize=${size}`,
      );
      expect(status, size).toBe(400);
      expect(contract().schemas.validate("error", body)).toEqual([]);
      expect(body.errors.pageSize?.[0]).toMatch(/pageSize/);
    }
  });

  it("matches query names case-insensitively", async () => {
    const first = await h.json<Page>(`${h.formPath("items")}?PAGESIZE=5`);
    expect(first.body.data).toHaveLength(5);
    const token = encodeURIComponent(first.body.pagination.continuationToken ?? "");
    const second = await h.json<Page>(`${h.formPath("items")}?pagesize=5&continuationtoken=${token}`);
    expect(second.status).toBe(200);
    const firstIds = (first.body.data as { id: number }[]).map((e) => e.id);
    const secondIds = (second.body.data as { id: number }[]).map((e) => e.id);
    expect(Math.max(...secondIds)).toBeLessThan(Math.min(...firstIds));
    expect(second.body.pagination.pageIndex).toBe(2);
  });

  it("refuses an altered token, a token of another listing, and an unencoded '+' with a 400, never a crash", async () => {
    const first = await h.json<Page>(`${h.formPath("items")}?pageSize=5`);
    const token = first.body.pagination.continuationToken ?? "";
    const altered = `${token.slice(0, 10)}${token[10] === "A" ? "B" : "A"}${token.slice(11)}`;
    for (const bad of [altered, "20180215135600_1914333", "%%%", "", token.slice(0, -1)]) {
      const response = await h.get(`${h.formPath("items")}?continuationToken=${encodeURIComponent(bad)}`);
      expect(response.status, bad).toBe(400);
      const body = (await response.json()) as { errors: Record<string, string[]> };
      expect(body.errors.continuationToken?.[0]).toMatch(/continuationToken is not valid/);
    }
    const other = await h.get(`${h.formPath("orders")}?continuationToken=${encodeURIComponent(token)}`);
    expect(other.status).toBe(400);
    const raw = await h.get(`${h.formPath("items")}?continuationToken=${token}`);
    expect(raw.status).toBe(400);
    expect((await h.get(h.formPath("items"))).status).toBe(200);
  });

  it("ties a token to its date window: two windows' crawls never share one, and another window's is refused", async () => {
    const all = await h.json<Page>(`${h.formPath("items")}?pageSize=10`);
    const dates = (all.body.data as { date: string }[]).map((e) => e.date);
    const windowed = (from: string, to: string, token?: string | null) =>
      `${h.formPath("items")}?pageSize=2&from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}${token ? `&continuationToken=${encodeURIComponent(token)}` : ""}`;
    const [to, later] = [dates[0] ?? "", dates[1] ?? ""];
    const from = dates[6] ?? "";
    // The same entries from two windows: one ending on the 1st entry's date, one 1 ms after the 2nd's.
    const justAfter = new Date(Date.parse(later) + 1).toISOString();
    const a = await h.json<Page>(windowed(from, to));
    const b = await h.json<Page>(windowed(from, justAfter));
    expect(b.body.data).toEqual(a.body.data);
    const [tokenA, tokenB] = [a.body.pagination.continuationToken, b.body.pagination.continuationToken];
    expect(tokenA).not.toBe(tokenB);
    expect((await h.get(windowed(from, to, tokenA))).status).toBe(200);
    const crossed = await h.json<{ errors: Record<string, string[]> }>(windowed(from, justAfter, tokenA));
    expect(crossed.status).toBe(400);
    expect(crossed.body.errors.continuationToken?.[0]).toMatch(/another date window/);
  });

  it("serves pageIndex without a token, and an empty page for pageIndex with a token (as reported)", async () => {
    const byIndex = await h.json<Page>(`${h.formPath("items")}?pageSize=10&pageIndex=2`);
    const crawled = await crawl(h, h.formPath("items"), { pageSize: "10" }, 2);
    expect((byIndex.body.data as { id: number }[]).map((e) => e.id)).toEqual(crawled.ids.slice(10, 20));
    expect(byIndex.body.pagination.pageIndex).toBe(2);
    const token = encodeURIComponent(crawled.pages[0]?.pagination.continuationToken ?? "");
    const mixed = await h.json<Page>(`${h.formPath("items")}?pageIndex=2&continuationToken=${token}`);
    expect(mixed.body.data).toEqual([]);
    const past = await h.json<Page>(`${h.formPath("items")}?pageSize=100&pageIndex=50`);
    expect(past.status).toBe(200);
    expect(past.body.data).toEqual([]);
  });

  it("filters on from and to (to exclusive)", async () => {
    const all = await crawl(h, h.formPath("orders"), { pageSize: "100" });
    const dates = all.pages
      .flatMap((p) => (p.data ?? []) as { date: string }[])
      .map((e) => Date.parse(e.date));
    const sorted = [...dates].sort((a, b) => a - b);
    const from = new Date(sorted[20] as number).toISOString();
    const to = new Date(sorted[60] as number).toISOString();
    const filtered = await crawl(h, h.formPath("orders"), { pageSize: "100", from, to });
    expect(filtered.ids).toHaveLength(40);
    const bad = await h.get(`${h.formPath("orders")}?from=yesterday`);
    expect(bad.status).toBe(400);
  });

  it("keeps the end token usable: new entries show up when resuming an ascending crawl", async () => {
    const asc = await crawl(h, "/v5/organizations/amis-du-bac-a-sable/orders", {
      sortOrder: "Asc",
      pageSize: "100",
    });
    const endToken = asc.pages.at(-1)?.pagination.continuationToken ?? "";
    await h.state("an order is paid");
    const resumed = await h.json<Page>(
      `/v5/organizations/amis-du-bac-a-sable/orders?sortOrder=Asc&continuationToken=${encodeURIComponent(endToken)}`,
    );
    expect(resumed.body.data).toHaveLength(1);
    await h.send("POST", "/_states", { action: "teardown" }, "none");
  });

  it("serves 100,000 entries per form quickly without building them", async () => {
    const big = await harness({ at: day("2025-06-15"), entries: 100_000 });
    try {
      const started = process.cpuUsage();
      const first = await big.json<Page>(`${big.formPath("payments")}?pageSize=100&withCount=true`);
      expect(first.body.data).toHaveLength(100);
      const last = await big.json<Page>(`${big.formPath("items")}?pageSize=100&pageIndex=1000`);
      expect(last.body.data).toHaveLength(100);
      const end = await big.json<Page>(`${big.formPath("items")}?pageSize=100&pageIndex=1001`);
      expect(end.body.data).toEqual([]);
      const window = await big.json<Page>(
        `${big.formPath("items")}?pageSize=100&from=2024-01-01T00:00:00Z&to=2024-01-02T00:00:00Z`,
      );
      expect((window.body.data ?? []).length).toBeGreaterThan(100 - 1);
      // CPU time, which a loaded machine does not stretch as it does the wall clock.
      const { user, system } = process.cpuUsage(started);
      expect((user + system) / 1000).toBeLessThan(3000);
    } finally {
      await big.close();
    }
  });

  it("is deterministic: the same seed gives the same entries, another seed other entries", async () => {
    const again = await harness({ at: day("2025-06-15"), entries: 137 });
    const other = await harness({ at: day("2025-06-15"), entries: 137, seed: 99 });
    try {
      const a = JSON.stringify((await h.json<Page>(h.formPath("orders"))).body.data).replaceAll(h.url, "");
      const b = JSON.stringify((await again.json<Page>(again.formPath("orders"))).body.data).replaceAll(
        again.url,
        "",
      );
      const c = JSON.stringify((await other.json<Page>(other.formPath("orders"))).body.data).replaceAll(
        other.url,
        "",
      );
      expect(b).toBe(a);
      expect(c).not.toBe(a);
    } finally {
      await again.close();
      await other.close();
    }
  });
});
