import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readBodyOrRefuse, tooLargeDetail } from "../../../core/http/body.js";
import type { RunningServer } from "../../../core/http/server.js";
import { parseResponse, rawExchange, serve } from "./support.js";

const LIMIT = 16;

/** A POST of `body` with a declared length, on a connection the server closes after the answer. */
const declared = (body: string, length = Buffer.byteLength(body)) =>
  `POST /echo HTTP/1.1\r\nhost: x\r\nconnection: close\r\ncontent-length: ${length}\r\n\r\n${body}`;

/** A chunked POST of `chunks`. */
const chunked = (chunks: string[]) =>
  `POST /echo HTTP/1.1\r\nhost: x\r\nconnection: close\r\ntransfer-encoding: chunked\r\n\r\n${chunks
    .map((c) => `${Buffer.byteLength(c).toString(16)}\r\n${c}\r\n`)
    .join("")}0\r\n\r\n`;

describe("readBodyOrRefuse", () => {
  let server: RunningServer;
  const seen: string[] = [];

  beforeAll(async () => {
    server = await serve(async (req, res) => {
      const remedy = req.url?.includes("remedy") ? "raise --limit" : undefined;
      const body = await readBodyOrRefuse(req, res, { bytes: LIMIT, title: "Too large here", remedy });
      if (!body.ok) return;
      seen.push(body.bytes.toString("utf8"));
      const text = `read ${body.bytes.length}`;
      res.writeHead(200, { "content-type": "text/plain", "content-length": text.length }).end(text);
    });
  });
  afterAll(() => server.close());

  it("reads a body of exactly the limit, declared or chunked, and an empty one", async () => {
    const exact = parseResponse(await rawExchange(server.url, declared("a".repeat(LIMIT))));
    expect(exact).toMatchObject({ status: 200, body: `read ${LIMIT}` });
    const inChunks = parseResponse(await rawExchange(server.url, chunked(["b".repeat(10), "c".repeat(6)])));
    expect(inChunks).toMatchObject({ status: 200, body: `read ${LIMIT}` });
    const empty = parseResponse(await rawExchange(server.url, declared("")));
    expect(empty).toMatchObject({ status: 200, body: "read 0" });
    expect(seen).toContain(`${"b".repeat(10)}${"c".repeat(6)}`);
  });

  it("answers 413 problem+json one byte over the limit and closes the connection", async () => {
    const over = parseResponse(await rawExchange(server.url, declared("a".repeat(LIMIT + 1))));
    expect(over.status).toBe(413);
    expect(over.head).toContain("content-type: application/problem+json");
    expect(over.head).toContain("connection: close");
    expect(JSON.parse(over.body)).toEqual({
      type: "urn:assopay:problem:body-too-large",
      title: "Too large here",
      status: 413,
      detail: `the request body is ${LIMIT + 1} bytes, over the limit of ${LIMIT}`,
    });
  });

  it("refuses a declared content-length over the limit before any of the body is sent", async () => {
    // Only the head is sent: the answer cannot wait for a body that never comes.
    const head = `POST /echo HTTP/1.1\r\nhost: x\r\ncontent-length: 5000000\r\n\r\n`;
    const answer = parseResponse(await rawExchange(server.url, head));
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).detail).toBe("the request body is 5000000 bytes, over the limit of 16");
  });

  it("refuses a chunked body that grows over the limit, naming no size it never saw", async () => {
    const answer = parseResponse(await rawExchange(server.url, chunked(["d".repeat(10), "e".repeat(7)])));
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).detail).toBe(`the request body is over ${LIMIT} bytes`);
  });

  it("says how to raise the limit where the server has a way", async () => {
    const answer = parseResponse(
      await rawExchange(server.url, declared("x".repeat(20)).replace("/echo", "/echo?remedy")),
    );
    expect(JSON.parse(answer.body).detail).toBe(
      `the request body is 20 bytes, over the limit of ${LIMIT}; raise --limit`,
    );
  });

  it("words the sentence for responses too", () => {
    expect(tooLargeDetail("response", 10, undefined, "try again")).toBe(
      "the response body is over 10 bytes; try again",
    );
  });
});
