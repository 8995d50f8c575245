import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { canonicalize } from "../../proxy/replay/key.js";
import { ReplayIndex } from "../../proxy/replay/replay-index.js";
import { type RunningReplay, startReplay } from "../../proxy/replay/server.js";
import { interactions, writeCassette } from "./support/cassettes.js";
import { send, tempDir } from "./support/http.js";

const ITEMS = "/v5/organizations/asso/forms/Event/gala/items";
const JSON_TYPE = { "content-type": "application/json" };
const FORM_TYPE = { "content-type": "application/x-www-form-urlencoded" };

describe("replay matching", () => {
  let temp: Awaited<ReturnType<typeof tempDir>>;
  let replay: RunningReplay;
  let file: string;

  beforeAll(async () => {
    temp = await tempDir();
    file = temp.file("matching.yaml");
    await writeCassette(file, [
      {
        path: ITEMS,
        query: { continuationToken: "abc+/=", pageSize: "20", states: ["A", "B"] },
        body: { json: { page: 2 } },
      },
      { path: ITEMS, body: { json: { page: 1 } } },
      {
        method: "POST",
        path: "/v5/checkout",
        requestHeaders: JSON_TYPE,
        requestBody: { json: { amount: 1000, payer: { email: "a@b.c" }, list: [1, 2] } },
        status: 201,
        body: { json: { id: 9 } },
      },
      {
        method: "POST",
        path: "/oauth2/token",
        requestHeaders: FORM_TYPE,
        requestBody: { text: "b=2&a=1&a=0" },
        body: { json: { token: "t" } },
      },
      { path: "/counter", body: { json: { hit: 1 } } },
      { path: "/counter", body: { json: { hit: 2 } } },
      { path: "/counter", body: { json: { hit: 3 } } },
      { path: "/v5/a~b", body: { text: "tilde" }, headers: { "content-type": "text/plain" } },
    ]);
    replay = await startReplay({ cassettes: file });
  });

  afterAll(async () => {
    await replay.close();
    await temp.remove();
  });

  it("matches query names without case and in any order, repeated names in any order", async () => {
    const reply = await send(
      `${replay.url}${ITEMS}?states=B&PAGESIZE=20&continuationtoken=abc%2B%2F%3D&states=A`,
    );
    expect(reply.status).toBe(200);
    expect(reply.json()).toEqual({ page: 2 });
    expect(reply.headers["x-assopay-replayed-from"]).toBe("matching.yaml:11");
  });

  it("matches JSON bodies by value and form bodies as sorted pairs", async () => {
    const json = await send(`${replay.url}/v5/checkout`, {
      method: "POST",
      headers: JSON_TYPE,
      body: '{ "list": [1, 2.0], "payer": {"email": "a@b.c"}, "amount": 1000 }',
    });
    expect(json.status).toBe(201);
    const form = await send(`${replay.url}/oauth2/token`, {
      method: "POST",
      headers: FORM_TYPE,
      body: "a=0&b=2&a=1",
    });
    expect(form.status).toBe(200);
  });

  it("normalises percent-encoding of unreserved characters in paths", async () => {
    expect((await send(`${replay.url}/v5/a%7eb`)).text).toBe("tilde");
  });

  it("replays identical requests in recorded order, then repeats the last", async () => {
    const hits: unknown[] = [];
    for (let i = 0; i < 4; i++) hits.push((await send(`${replay.url}/counter`)).json());
    expect(hits).toEqual([{ hit: 1 }, { hit: 2 }, { hit: 3 }, { hit: 3 }]);
  });

  it("explains a miss on the query, naming the closest recorded request and each difference", async () => {
    const reply = await send(`${replay.url}${ITEMS}?continuationToken=zzz&pageSize=20&states=A&states=B`);
    expect(reply.status).toBe(501);
    expect(reply.headers["content-type"]).toBe("application/problem+json");
    expect(reply.json()).toEqual({
      type: "urn:assopay:problem:no-match",
      title: "No recorded interaction matches",
      status: 501,
      detail: `no recorded request matches GET ${ITEMS}?continuationToken=zzz&pageSize=20&states=A&states=B; the closest differs in query continuationToken`,
      request: `GET ${ITEMS}?continuationToken=zzz&pageSize=20&states=A&states=B`,
      closest: [
        {
          cassette: `${file}:11`,
          id: 1,
          request: `GET ${ITEMS}?continuationToken=abc%2B%2F%3D&pageSize=20&states=A&states=B`,
          differences: [{ field: "query continuationToken", recorded: "abc+/=", received: "zzz" }],
        },
        {
          cassette: `${file}:32`,
          id: 2,
          request: `GET ${ITEMS}`,
          differences: [
            { field: "query continuationToken", recorded: null, received: "zzz" },
            { field: "query pageSize", recorded: null, received: "20" },
            { field: "query states", recorded: null, received: ["A", "B"] },
          ],
        },
      ],
    });
  });

  it("pins the miss messages for a repeated name, the method, the path and a JSON body", async () => {
    const detail = async (path: string, options: Parameters<typeof send>[1] = {}) =>
      (await send(`${replay.url}${path}`, options)).json<{ detail: string }>().detail;
    expect(await detail(`${ITEMS}?continuationToken=abc%2B%2F%3D&pageSize=20&states=A`)).toBe(
      `no recorded request matches GET ${ITEMS}?continuationToken=abc%2B%2F%3D&pageSize=20&states=A; the closest differs in query states`,
    );
    expect(await detail("/counter", { method: "DELETE" })).toBe(
      "no recorded request matches DELETE /counter; the closest differs in method",
    );
    expect(await detail("/countr")).toBe(
      "no recorded request matches GET /countr; the closest differs in path",
    );
    expect(
      await detail("/v5/checkout?x=1", {
        method: "POST",
        headers: JSON_TYPE,
        body: '{"amount":999,"payer":{"email":"z@b.c"},"list":[1,2]}',
      }),
    ).toBe(
      "no recorded request matches POST /v5/checkout?x=1; the closest differs in query x, body amount and body payer.email",
    );
    expect(await detail("/oauth2/token", { method: "POST", headers: FORM_TYPE, body: "a=0&b=3&a=1" })).toBe(
      "no recorded request matches POST /oauth2/token; the closest differs in body b",
    );
    expect(
      await detail("/v5/checkout", {
        method: "POST",
        headers: { "content-type": "text/plain" },
        body: "hello",
      }),
    ).toBe("no recorded request matches POST /v5/checkout; the closest differs in body");
  });

  it("says so when the cassettes hold nothing to replay", async () => {
    const empty = temp.file("empty.yaml");
    await writeCassette(empty, []);
    const server = await startReplay({ cassettes: empty });
    try {
      expect((await send(`${server.url}/v5/partners/me`)).json()).toMatchObject({
        status: 501,
        detail:
          "no recorded request matches GET /v5/partners/me; the cassettes hold no interactions to replay",
        closest: [],
      });
    } finally {
      await server.close();
    }
  });
});

describe("the replay index", () => {
  it("finds a request among tens of thousands by its hash key, without scanning", () => {
    const many = interactions(
      Array.from({ length: 20_000 }, (_, i) => ({ path: ITEMS, query: { continuationToken: `token-${i}` } })),
    ).map((x) => ({ ...x, source: { file: "big.yaml", line: x.id } }));
    const index = new ReplayIndex(many);
    const wanted = canonicalize({
      method: "GET",
      path: ITEMS,
      query: { continuationtoken: "token-19999" },
      headers: {},
    });
    // CPU time, which a loaded machine does not stretch as it does the wall clock.
    const started = process.cpuUsage();
    for (let i = 0; i < 5000; i++) index.take(wanted.key);
    const { user, system } = process.cpuUsage(started);
    const perLookup = (user + system) / 1000 / 5000;
    const found = index.take(wanted.key);
    expect(found === undefined ? undefined : index.id(found)).toBe(20_000);
    expect(perLookup).toBeLessThan(0.05);
  });
});
