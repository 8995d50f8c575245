import { gunzipSync } from "node:zlib";
import nock from "nock";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { placeholderFor } from "../../core/secrets/placeholder.js";
import { loadCassetteIntoNock } from "../../proxy/nock.js";
import { writeCassette } from "./support/cassettes.js";
import { send, tempDir } from "./support/http.js";

const BASE = "http://api.assopay.test";
const ITEMS = "/v5/organizations/asso/forms/Event/gala/items";
const PAGE = { data: [{ id: 1 }], pagination: { totalCount: 6, totalPages: 3, continuationToken: "t" } };
const FILE = Buffer.from([0x25, 0x50, 0x44, 0x46, 0xff, 0x00, 0x81]);

describe("assopay-contract/nock", () => {
  let temp: Awaited<ReturnType<typeof tempDir>>;
  let file: string;

  beforeAll(async () => {
    temp = await tempDir();
    file = temp.file("nock.yaml");
    await writeCassette(file, [
      { path: ITEMS, query: { pageSize: "20" }, body: { json: PAGE } },
      { path: "/counter", body: { json: { hit: 1 } } },
      { path: "/counter", body: { json: { hit: 2 } } },
      {
        method: "POST",
        path: "/oauth2/token",
        requestHeaders: { "content-type": "application/x-www-form-urlencoded" },
        requestBody: {
          text: `grant_type=client_credentials&client_secret=${placeholderFor("real-secret-value")}`,
        },
        body: { json: { access_token: placeholderFor("a-token-value") } },
      },
      {
        path: "/v5/orders/1/files/2",
        headers: { "content-type": "application/octet-stream" },
        body: { base64: FILE.toString("base64") },
      },
      {
        path: "/gz",
        headers: { "content-type": "application/json", "content-encoding": "gzip" },
        body: { json: { z: 1 }, encoding: "gzip" },
      },
      { path: "/v3/organizations/asso/items", body: { json: { items: [] } } },
    ]);
    nock.disableNetConnect();
  });

  afterEach(() => {
    nock.cleanAll();
  });

  afterAll(async () => {
    nock.enableNetConnect();
    await temp.remove();
  });

  it("replays a cassette to a plain http.request client, with the same matching as the replay server", async () => {
    const cassette = await loadCassetteIntoNock(file, { baseUrl: BASE });
    expect(cassette.interactions).toBe(7);
    const page = await send(`${BASE}${ITEMS}?PageSize=20`);
    expect(page.status).toBe(200);
    expect(page.json()).toEqual(PAGE);
    expect((await send(`${BASE}/counter`)).json()).toEqual({ hit: 1 });
    expect((await send(`${BASE}/counter`)).json()).toEqual({ hit: 2 });
    expect((await send(`${BASE}/counter`)).json()).toEqual({ hit: 2 });
    const token = await send(`${BASE}/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "client_secret=real-secret-value&grant_type=client_credentials",
    });
    expect(token.json()).toEqual({ access_token: placeholderFor("a-token-value") });
    expect((await send(`${BASE}/v5/orders/1/files/2`)).body.equals(FILE)).toBe(true);
    const gz = await send(`${BASE}/gz`);
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(JSON.parse(gunzipSync(gz.body).toString())).toEqual({ z: 1 });
    expect(cassette.misses).toEqual([]);
    cassette.restore();
  });

  it("answers a miss with the same problem, and keeps it in misses", async () => {
    const cassette = await loadCassetteIntoNock(file, { baseUrl: BASE });
    const miss = await send(`${BASE}${ITEMS}?pageSize=50`);
    expect(miss.status).toBe(501);
    expect(cassette.misses).toEqual([
      `no recorded request matches GET ${ITEMS}?pageSize=50; the closest differs in query pageSize`,
    ]);
    cassette.restore();
  });

  it("applies the timeline with at", async () => {
    const cassette = await loadCassetteIntoNock(file, { baseUrl: BASE, at: "2025-06-15" });
    expect((await send(`${BASE}${ITEMS}?pageSize=20`)).json()).toEqual({
      data: [{ id: 1 }],
      pagination: { continuationToken: "t" },
    });
    expect((await send(`${BASE}/v3/organizations/asso/items`)).status).toBe(200);
    cassette.restore();
    const later = await loadCassetteIntoNock(file, { baseUrl: BASE, at: "2025-07-01" });
    expect((await send(`${BASE}/v3/organizations/asso/items`)).status).toBe(404);
    later.restore();
  });

  it("refuses a base URL with a path", async () => {
    await expect(loadCassetteIntoNock(file, { baseUrl: `${BASE}/v5` })).rejects.toMatchObject({
      code: "usage",
    });
  });
});
