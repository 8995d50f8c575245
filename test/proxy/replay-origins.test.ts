import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningReplay, startReplay } from "../../proxy/replay/server.js";
import { HEADER, writeCassette } from "./support/cassettes.js";
import { send, tempDir } from "./support/http.js";

// A replayed response must not send the client back to the recorded service: the upstream origin
// (and its sibling hosts: checkout pages live on www. next to api.) becomes the replay's own.
const API = "https://api.helloasso-sandbox.com";
const FILE_PATH = "/v5/orders/7/items/8/file";
const PDF = Buffer.from("%PDF-1.4 fake receipt https://api.helloasso-sandbox.com/kept-in-binary");
const REDIRECT = "https://www.helloasso-sandbox.com/associations/asso/checkout/abc123";
const JSON_TYPE = { "content-type": "application/json; charset=utf-8" };

describe("hermetic replay: recorded origins point at the replay", () => {
  let temp: Awaited<ReturnType<typeof tempDir>>;
  let file: string;
  let replay: RunningReplay;
  let kept: RunningReplay;

  beforeAll(async () => {
    temp = await tempDir();
    file = temp.file("origins.yaml");
    await writeCassette(
      file,
      [
        {
          method: "POST",
          path: "/v5/organizations/asso/checkout-intents",
          requestHeaders: { "content-type": "application/json" },
          requestBody: { json: { totalAmount: 1000 } },
          body: { json: { id: 123, redirectUrl: REDIRECT } },
        },
        {
          path: "/v5/orders/7",
          body: {
            json: {
              id: 7,
              items: [{ id: 8, fileUrl: `${API}${FILE_PATH}` }],
              lookalike: `${API}.evil.example/x`,
              otherPort: `${API}:8443/x`,
              foreign: "https://example.org/x",
            },
          },
        },
        {
          path: FILE_PATH,
          headers: { "content-type": "application/pdf" },
          body: { base64: PDF.toString("base64") },
        },
        {
          path: "/v5/escaped",
          headers: JSON_TYPE,
          body: { text: `{"url":"https:\\/\\/api.helloasso-sandbox.com\\/v5\\/x"}` },
        },
        {
          path: "/v5/moved",
          status: 302,
          headers: { location: `${API}/v5/orders/7`, link: `<${API}/v5/orders?page=2>; rel="next"` },
        },
        {
          path: "/v5/zipped",
          headers: { ...JSON_TYPE, "content-encoding": "gzip" },
          body: { json: { fileUrl: `${API}${FILE_PATH}` }, encoding: "gzip" },
        },
      ],
      HEADER,
    );
    replay = await startReplay({ cassettes: file });
    kept = await startReplay({ cassettes: file, keepOrigins: true });
  });

  afterAll(async () => {
    await replay.close();
    await kept.close();
    await temp.remove();
  });

  const checkout = (url: string) =>
    send(`${url}/v5/organizations/asso/checkout-intents`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ totalAmount: 1000 }),
    });

  it("rewrites a checkout's redirectUrl and an order's file URLs, which the replay then serves", async () => {
    const intent = (await checkout(replay.url)).json<{ redirectUrl: string }>();
    expect(intent.redirectUrl).toBe(`${replay.url}/associations/asso/checkout/abc123`);
    const order = (await send(`${replay.url}/v5/orders/7`)).json<{
      items: { fileUrl: string }[];
      lookalike: string;
      otherPort: string;
      foreign: string;
    }>();
    const fileUrl = order.items[0]?.fileUrl ?? "";
    expect(fileUrl).toBe(`${replay.url}${FILE_PATH}`);
    const pdf = await send(fileUrl);
    expect(pdf.status).toBe(200);
    // Binary bodies are never rewritten.
    expect(pdf.body.equals(PDF)).toBe(true);
    // Other hosts, a longer host name and another port are not the recorded origin.
    expect(order.lookalike).toBe(`${API}.evil.example/x`);
    expect(order.otherPort).toBe(`${API}:8443/x`);
    expect(order.foreign).toBe("https://example.org/x");
  });

  it("rewrites Location and Link headers, JSON-escaped slashes and compressed bodies", async () => {
    const moved = await send(`${replay.url}/v5/moved`);
    expect(moved.status).toBe(302);
    expect(moved.headers.location).toBe(`${replay.url}/v5/orders/7`);
    expect(moved.headers.link).toBe(`<${replay.url}/v5/orders?page=2>; rel="next"`);
    const escaped = await send(`${replay.url}/v5/escaped`);
    expect(escaped.text).toBe(`{"url":"${replay.url.replace(/\//g, "\\/")}\\/v5\\/x"}`);
    expect(JSON.parse(escaped.text)).toEqual({ url: `${replay.url}/v5/x` });
    const zipped = await send(`${replay.url}/v5/zipped`);
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    expect(JSON.parse(gunzipSync(zipped.body).toString("utf8"))).toEqual({
      fileUrl: `${replay.url}${FILE_PATH}`,
    });
  });

  it("serves the same rewritten answer every time (prepared once)", async () => {
    const first = await send(`${replay.url}/v5/orders/7`);
    const second = await send(`${replay.url}/v5/orders/7`);
    expect(second.text).toBe(first.text);
    expect(second.text).toContain(replay.url);
  });

  it("keeps the recorded origins with keepOrigins", async () => {
    const intent = (await checkout(kept.url)).json<{ redirectUrl: string }>();
    expect(intent.redirectUrl).toBe(REDIRECT);
    const order = (await send(`${kept.url}/v5/orders/7`)).json<{ items: { fileUrl: string }[] }>();
    expect(order.items[0]?.fileUrl).toBe(`${API}${FILE_PATH}`);
    expect((await send(`${kept.url}/v5/moved`)).headers.location).toBe(`${API}/v5/orders/7`);
  });
});
