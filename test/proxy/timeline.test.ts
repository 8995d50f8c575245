import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadContract } from "../../contracts/index.js";
import { startReplay } from "../../proxy/replay/server.js";
import { writeCassette } from "./support/cassettes.js";
import { send, tempDir } from "./support/http.js";

const ITEMS = "/v5/organizations/asso/forms/Event/gala/items";
const V3 = "/v3/organizations/asso/items";
const PAGE = {
  data: [{ id: 1 }],
  pagination: { pageSize: 20, pageIndex: 1, totalCount: 6, totalPages: 3, continuationToken: "t" },
};

describe("replay --at applies the timeline to recorded responses", () => {
  const contract = loadContract();
  let temp: Awaited<ReturnType<typeof tempDir>>;
  let file: string;

  beforeAll(async () => {
    temp = await tempDir();
    file = temp.file("dated.yaml");
    await writeCassette(file, [
      { path: ITEMS, body: { json: PAGE } },
      { path: ITEMS, query: { withCount: "true" }, body: { json: PAGE } },
      { path: ITEMS, query: { withCount: "false" }, body: { json: PAGE } },
      { path: V3, body: { json: { items: [{ id: 1 }], pagination: { totalCount: 1, totalPages: 1 } } } },
      { path: "/v5/partners/me", body: { json: { name: "partner", pagination: { totalCount: 1 } } } },
    ]);
  });

  afterAll(async () => {
    await temp.remove();
  });

  async function at(day: string | undefined, path: string) {
    const replay = await startReplay({ cassettes: file, ...(day ? { at: day } : {}), contract });
    try {
      return await send(`${replay.url}${path}`);
    } finally {
      await replay.close();
    }
  }

  it("serves responses as recorded without --at", async () => {
    expect((await at(undefined, ITEMS)).json()).toEqual(PAGE);
  });

  it("keeps real counts while withCount defaults to true, and -1 when the request says withCount=false", async () => {
    expect((await at("2025-01-15", ITEMS)).json()).toEqual(PAGE);
    expect((await at("2025-01-15", `${ITEMS}?withCount=false`)).json()).toMatchObject({
      pagination: { totalCount: -1, totalPages: -1 },
    });
  });

  it("answers -1 counts after the default flips, unless the request asks withCount=true", async () => {
    expect((await at("2025-04-01", ITEMS)).json()).toEqual({
      ...PAGE,
      pagination: { ...PAGE.pagination, totalCount: -1, totalPages: -1 },
    });
    expect((await at("2025-04-01", `${ITEMS}?withcount=true`)).json()).toEqual(PAGE);
  });

  it("removes the count fields after their removal, whatever withCount says", async () => {
    const { totalCount: _c, totalPages: _p, ...rest } = PAGE.pagination;
    expect((await at("2025-06-15", ITEMS)).json()).toEqual({ ...PAGE, pagination: rest });
    expect((await at("2025-06-15", `${ITEMS}?withCount=true`)).json()).toEqual({ ...PAGE, pagination: rest });
  });

  it("answers 404 on v3 routes after their switch-off, and serves them before", async () => {
    expect((await at("2025-06-29", V3)).status).toBe(200);
    const gone = await at("2025-07-01", V3);
    expect(gone.status).toBe(404);
    expect(gone.json()).toMatchObject({
      status: 404,
      errors: [{ code: "NotFound" }],
      detail:
        "The v3 API is switched off since 2025-06-30: GET /v3/organizations/{organizationSlug}/items no longer exists.",
    });
    expect((await at("2025-07-01", "/v3/organizations/other/items?never=recorded")).status).toBe(404);
  });

  it("leaves routes without a count deprecation alone", async () => {
    expect((await at("2025-06-15", "/v5/partners/me")).json()).toEqual({
      name: "partner",
      pagination: { totalCount: 1 },
    });
  });

  it("refuses a date that is not a calendar day", async () => {
    await expect(startReplay({ cassettes: file, at: "2025-02-30" })).rejects.toMatchObject({ code: "usage" });
  });
});
