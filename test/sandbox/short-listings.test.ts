import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contract, day, type Harness, harness, type Page } from "./helpers.js";

/** Crawls a listing to its empty page, collecting whole entries (these entries carry no numeric id). */
async function crawlEntries(h: Harness, path: string, pageSize: number) {
  const entries: unknown[] = [];
  const pages: Page[] = [];
  let token: string | undefined;
  for (let n = 0; n < 50; n++) {
    const params = new URLSearchParams({ pageSize: String(pageSize) });
    if (token !== undefined) params.set("continuationToken", token);
    const { status, body } = await h.json<Page>(`${path}?${params}`, "reader");
    expect(status, `${path}?${params}`).toBe(200);
    pages.push(body);
    if ((body.data ?? []).length === 0) return { entries, pages };
    entries.push(...(body.data ?? []));
    token = body.pagination.continuationToken ?? undefined;
  }
  throw new Error(`${path} never ended`);
}

describe("sandbox short listings (an organization's forms, the partner's organizations)", () => {
  let h: Harness;
  let forms: string;
  const organizations = "/v5/partners/me/organizations";
  beforeAll(async () => {
    h = await harness({ at: day("2026-01-01") });
    forms = `/v5/organizations/${h.sandbox.credentials.organizationSlug}/forms`;
  });
  afterAll(() => h.close());

  it("pages like the other listings: protected tokens, real counts, an empty array at the end", async () => {
    for (const path of [forms, organizations]) {
      const whole = await h.json<Page>(`${path}?pageSize=100`, "reader");
      const total = (whole.body.data ?? []).length;
      expect(total, path).toBeGreaterThan(0);
      const { entries, pages } = await crawlEntries(h, path, 1);
      expect(entries, path).toEqual(whole.body.data);
      expect(pages).toHaveLength(total + 1);
      const [last, beforeLast] = [pages.at(-1) as Page, pages.at(-2) as Page];
      expect(last.pagination.continuationToken).toBe(beforeLast.pagination.continuationToken);
      for (const page of pages) {
        expect(page.pagination.continuationToken).toMatch(/^\+\/\+\/.*=$/);
        expect(page.pagination).toMatchObject({ pageSize: 1, totalCount: total, totalPages: total });
      }
    }
  });

  it("names its result array, entries and counts as the contract says", () => {
    for (const id of ["v5.organization-forms", "v5.partner-organizations"]) {
      const route = contract().routes.byId(id);
      expect(route.pagination).toMatchObject({ resultArray: "data", defaultPageSize: 20, maxPageSize: 100 });
      expect(route.countDeprecation).toBe(false);
    }
  });

  it("refuses an altered token, another listing's token and a page size past 100 with a 400", async () => {
    const first = await h.json<Page>(`${forms}?pageSize=1`, "reader");
    const token = first.body.pagination.continuationToken ?? "";
    const altered = `${token.slice(0, 6)}${token[6] === "A" ? "B" : "A"}${token.slice(7)}`;
    const other = (await h.json<Page>(`${organizations}?pageSize=1`, "reader")).body.pagination;
    const plain = Buffer.from("offset:1").toString("base64");
    for (const [path, sent] of [
      [forms, altered],
      [forms, other.continuationToken ?? ""],
      [organizations, token],
      [forms, plain],
    ] as const) {
      const { status, body } = await h.json<{ errors: Record<string, string[]> }>(
        `${path}?continuationToken=${encodeURIComponent(sent)}`,
        "reader",
      );
      expect(status, `${path} ${sent}`).toBe(400);
      expect(contract().schemas.validate("error", body)).toEqual([]);
      expect(body.errors.continuationToken?.[0]).toMatch(/continuationToken/);
    }
    expect((await h.get(`${forms}?pageSize=101`, "reader")).status).toBe(400);
  });

  it("validates each page against the contract's page schema", async () => {
    for (const id of ["v5.organization-forms", "v5.partner-organizations"]) {
      const route = contract().routes.byId(id);
      const path = route.path.replace("{organizationSlug}", h.sandbox.credentials.organizationSlug);
      const { body } = await h.json(`${path}?pageSize=2`, "reader");
      expect(contract().schemas.validatePage(route, body, "real")).toEqual([]);
    }
  });
});
