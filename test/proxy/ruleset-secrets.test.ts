import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRecorder } from "../../proxy/record/server.js";
import { RULESET_TEXT_LIMIT, rulesetSecrets, scanTexts } from "../../proxy/redaction/ruleset.js";
import { send, tempDir } from "./support/http.js";

/**
 * The recorder runs secretlint's recommended preset over each exchange's start lines, headers and text
 * bodies, and replaces what it finds everywhere. The secrets below are ones only the ruleset knows: an
 * AWS secret access key has no shape of its own (40 characters, known by the name beside it), so the
 * project's formats (core/secrets/formats.ts) leave it, in a header no name marks and in a text body.
 */

/** A deterministic run of `n` characters (the samples stay the same from run to run). */
function run(n: number, seed: number): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/+";
  return Array.from({ length: n }, (_, i) => alphabet[(i * 7 + seed) % alphabet.length]).join("");
}

const HEADER_KEY = run(40, 3);
const BODY_KEY = run(40, 11);
const JSON_KEY = run(40, 19);
const QUERY_KEY = run(40, 27);
const ORDINARY = [
  "order 10000044 paid 1200 cents on 2025-04-01T10:00:00.000+02:00 by Jeanne Martin",
  "checksum sha256=9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
  "receipt id 3f2504e0-4f89-11d3-9a0c-0305e82c3301, file cGF5bWVudC1yZWNlaXB0LnBkZg==",
].join("\n");

describe("the recorder runs the ruleset on headers and text bodies", () => {
  let upstream: Server;
  let written = "";
  let temp: Awaited<ReturnType<typeof tempDir>>;

  beforeAll(async () => {
    upstream = createServer((req, res) => {
      switch (req.url?.split("?")[0]) {
        case "/config":
          res.writeHead(200, {
            "content-type": "text/plain",
            "x-deploy": `aws_secret_access_key=${HEADER_KEY}`,
          });
          res.end(`[default]\naws_secret_access_key = ${BODY_KEY}\nregion = eu-west-3\n`);
          return;
        case "/settings":
          res.writeHead(200, { "content-type": "application/json" });
          res.end(JSON.stringify({ note: `set AWS_SECRET_ACCESS_KEY="${JSON_KEY}" before deploying` }));
          return;
        case "/ordinary":
          res.writeHead(200, { "content-type": "text/plain" }).end(ORDINARY);
          return;
        default:
          res.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
    temp = await tempDir();
    const recorder = await startRecorder({
      upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
      cassette: temp.file("ruleset.yaml"),
    });
    await send(`${recorder.url}/config`);
    await send(`${recorder.url}/settings`);
    await send(`${recorder.url}/ordinary?aws_secret_access_key=${encodeURIComponent(QUERY_KEY)}`);
    await recorder.close();
    written = await readFile(temp.file("ruleset.yaml"), "utf8");
  });

  afterAll(async () => {
    await new Promise((resolve) => upstream.close(resolve));
    await temp.remove();
  });

  it("the samples are secrets by the ruleset (the test fails if secretlint stops flagging them)", async () => {
    expect(await rulesetSecrets(`aws_secret_access_key=${HEADER_KEY}`)).toEqual([HEADER_KEY]);
    expect(await rulesetSecrets(`AWS_SECRET_ACCESS_KEY="${JSON_KEY}"`)).toEqual([JSON_KEY]);
  });

  it("writes none of them: in a header no name marks, a text body, a JSON string, a query", () => {
    expect(written).toContain("region = eu-west-3");
    for (const key of [HEADER_KEY, BODY_KEY, JSON_KEY, QUERY_KEY]) {
      expect(written).not.toContain(key);
      expect(written).not.toContain(encodeURIComponent(key));
    }
    expect(written.match(/<secret:[0-9a-f]{16}>/g)?.length ?? 0).toBeGreaterThanOrEqual(4);
  });

  it("keeps ordinary text as it came: ids, dates, hashes, UUIDs and base64 names are no secrets", async () => {
    expect(await rulesetSecrets(ORDINARY)).toEqual([]);
    for (const line of ORDINARY.split("\n")) expect(written).toContain(line);
  });
});

describe("the ruleset's scans", () => {
  it("a URL's credential: the password is the secret, the rest of the URL stays readable", async () => {
    const password = run(14, 5);
    expect(await rulesetSecrets(`see https://alice:${password}@api.example.org/v5`)).toEqual([password]);
  });

  it("a secret escaped inside a JSON string is found as written and as read", async () => {
    const body = `{"k":"-----BEGIN RSA PRIVATE KEY-----\\nMIIEowIBAAKCAQEA${run(64, 1)}\\n-----END RSA PRIVATE KEY-----"}`;
    const found = await rulesetSecrets(body);
    expect(found.some((s) => s.includes("\\n"))).toBe(true);
    expect(found.some((s) => s.includes("\n") && !s.includes("\\n"))).toBe(true);
  });

  it("packs an exchange's parts into one scan, and leaves out bodies over the limit or not text", () => {
    const headers = { "content-type": "text/plain" };
    const small = { line: "GET /a", headers, body: { wire: Buffer.from("hello") } };
    const binary = { line: "HTTP 200", headers, body: { wire: Buffer.from([0xff, 0xfe, 0x00, 0x81]) } };
    const big = { line: "HTTP 200", headers, body: { wire: Buffer.alloc(RULESET_TEXT_LIMIT + 1, 0x61) } };
    expect(scanTexts([small, binary])).toEqual([
      "GET /a\ncontent-type: text/plain\n\nhello\n\nHTTP 200\ncontent-type: text/plain",
    ]);
    expect(scanTexts([big]).join("")).not.toContain("aaaa");
    const half = { line: "HTTP 200", headers, body: { wire: Buffer.alloc(RULESET_TEXT_LIMIT * 0.75, 0x62) } };
    expect(scanTexts([half, half])).toHaveLength(2);
  });

  it("leaves nothing on the process's performance timeline, however many scans run", async () => {
    // Files share a process here: start from a clean timeline, so only what these scans leave counts.
    performance.clearMarks();
    for (let i = 0; i < 50; i++) await rulesetSecrets(`token ${run(20, i)}`);
    expect(performance.getEntriesByType("mark")).toEqual([]);
  });
});
