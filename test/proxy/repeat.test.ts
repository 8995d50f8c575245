import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadContract } from "../../contracts/index.js";
import { placeholderFor } from "../../core/secrets/placeholder.js";
import { type RunningReplay, startReplay } from "../../proxy/replay/server.js";
import { KeyMemo } from "../../proxy/replay/start-over-map.js";
import { writeCassette } from "./support/cassettes.js";
import { send, tempDir } from "./support/http.js";

// The replay server answers a bodyless request line it has seen from a memo of its keys: these tests send
// each request more than once, so the second answer comes from the memo and must equal the first.
const ITEMS = "/v5/organizations/asso/forms/Event/gala/items";
const V3 = "/v3/organizations/asso/items";
const JSON_TYPE = { "content-type": "application/json" };
const PAGE = { data: [{ id: 1 }], pagination: { pageSize: 20, totalCount: 6, totalPages: 1 } };

async function twice(url: string, options: Parameters<typeof send>[1] = {}) {
  const first = await send(url, options);
  const second = await send(url, options);
  return [first, second] as const;
}

describe("replaying a request line seen before", () => {
  let temp: Awaited<ReturnType<typeof tempDir>>;
  let replay: RunningReplay;
  let dated: RunningReplay;

  beforeAll(async () => {
    temp = await tempDir();
    const file = temp.file("repeat.yaml");
    await writeCassette(file, [
      { path: ITEMS, query: { pageSize: "20" }, body: { json: PAGE } },
      {
        path: "/v5/users/me",
        query: { access_token: placeholderFor("a-long-access-token") },
        body: { text: "me" },
      },
      {
        method: "POST",
        path: "/v5/checkout",
        requestHeaders: JSON_TYPE,
        requestBody: { json: { amount: 1 } },
        body: { json: { id: 1 } },
      },
      {
        method: "POST",
        path: "/v5/checkout",
        requestHeaders: JSON_TYPE,
        requestBody: { json: { amount: 2 } },
        body: { json: { id: 2 } },
      },
      { path: V3, body: { json: { items: [] } } },
    ]);
    replay = await startReplay({ cassettes: file });
    dated = await startReplay({ cassettes: file, at: "2025-07-01", contract: loadContract() });
  });

  afterAll(async () => {
    await replay.close();
    await dated.close();
    await temp.remove();
  });

  it("answers the same line the same way twice, however the query was written", async () => {
    for (const target of [`${ITEMS}?pageSize=20`, `${ITEMS}?PAGESIZE=20`]) {
      const [first, second] = await twice(`${replay.url}${target}`);
      expect(first.json()).toEqual(PAGE);
      expect(second.body).toEqual(first.body);
      expect(second.headers["x-assopay-replayed-from"]).toBe("repeat.yaml:11");
    }
  });

  it("matches a secret against its placeholder on every repeat", async () => {
    const [first, second] = await twice(`${replay.url}/v5/users/me?access_token=a-long-access-token`);
    expect([first.text, second.text]).toEqual(["me", "me"]);
  });

  it("explains a repeated miss every time, with the same words", async () => {
    const [first, second] = await twice(`${replay.url}${ITEMS}?pageSize=50`);
    expect([first.status, second.status]).toEqual([501, 501]);
    expect(second.json()).toEqual(first.json());
    expect(second.json<{ detail: string }>().detail).toBe(
      `no recorded request matches GET ${ITEMS}?pageSize=50; the closest differs in query pageSize`,
    );
  });

  it("matches the body of every request with a body, sized or chunked, never by its line alone", async () => {
    const answers: unknown[] = [];
    for (const amount of [1, 2, 1, 2]) {
      const sized = await send(`${replay.url}/v5/checkout`, {
        method: "POST",
        headers: JSON_TYPE,
        body: JSON.stringify({ amount }),
      });
      const chunked = await send(`${replay.url}/v5/checkout`, {
        method: "POST",
        headers: { ...JSON_TYPE, "transfer-encoding": "chunked" },
        body: JSON.stringify({ amount }),
      });
      answers.push(sized.json(), chunked.json());
    }
    expect(answers).toEqual([1, 1, 2, 2, 1, 1, 2, 2].map((id) => ({ id })));
    const other = await send(`${replay.url}/v5/checkout`, {
      method: "POST",
      headers: JSON_TYPE,
      body: JSON.stringify({ amount: 3 }),
    });
    expect(other.status).toBe(501);
  });

  it("applies the timeline to every repeat: counts rewritten and switched-off routes gone", async () => {
    const [first, second] = await twice(`${dated.url}${ITEMS}?pageSize=20`);
    expect(first.json()).toEqual({ data: PAGE.data, pagination: { pageSize: 20 } });
    expect(second.json()).toEqual(first.json());
    const [gone, goneAgain] = await twice(`${dated.url}${V3}`);
    expect([gone.status, goneAgain.status]).toEqual([404, 404]);
  });
});

describe("the key memo", () => {
  it("keeps at most its limit of request lines, starting over when full", () => {
    const memo = new KeyMemo(3);
    for (let i = 0; i < 10; i++) memo.set(KeyMemo.line("GET", `/x?i=${i}`), [`k${i}`]);
    expect(memo.size).toBeLessThanOrEqual(3);
    expect(memo.get("GET /x?i=9")).toEqual(["k9"]);
    expect(memo.get("GET /x?i=0")).toBeUndefined();
  });
});
