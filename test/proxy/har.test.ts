import { execFile } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { harCommand } from "../../cli/commands/har.js";
import { placeholderFor } from "../../core/secrets/placeholder.js";
import { loadCassette } from "../../proxy/cassette/reader.js";
import type { Har, HarEntry } from "../../proxy/har/format.js";
import { startRecorder } from "../../proxy/record/server.js";
import { startReplay } from "../../proxy/replay/server.js";
import { type RunningSandbox, startSandbox } from "../../sandbox/index.js";
import { brokenRules, clientPath, gateClient, verdictOf } from "../gate/support.js";
import { contract } from "../sandbox/helpers.js";
import { runCli } from "../support/run-cli.js";
import { harSchemaErrors, interactionsOf } from "./support/har.js";
import { tempDir } from "./support/http.js";

/** A client's session through the recorder: a token, two pages of a listing, an order, a refund. */
async function session(base: string, sandbox: RunningSandbox): Promise<void> {
  const c = sandbox.credentials;
  const token = await fetch(`${base}/oauth2/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_id: c.admin.clientId,
      client_secret: c.admin.clientSecret,
    }),
  });
  const { access_token } = (await token.json()) as { access_token: string };
  const headers = { authorization: `Bearer ${access_token}` };
  const items = `${base}/v5/organizations/${c.organizationSlug}/forms/${c.formType}/${c.formSlug}/items?pageSize=4`;
  const first = (await (await fetch(items, { headers })).json()) as {
    data: { order: { id: number }; payments: { id: number }[] }[];
    pagination: { continuationToken: string };
  };
  await (
    await fetch(`${items}&continuationToken=${encodeURIComponent(first.pagination.continuationToken)}`, {
      headers,
    })
  ).text();
  await (await fetch(`${base}/v5/orders/${first.data[0]?.order.id}`, { headers })).text();
  const refund = `${base}/v5/payments/${first.data[0]?.payments[0]?.id}/refund?amount=100`;
  await (await fetch(refund, { method: "POST", headers })).text();
}

describe("assopay har export, then har import: the same interactions", () => {
  let sandbox: RunningSandbox;
  let temp: Awaited<ReturnType<typeof tempDir>>;
  let cassette = "";
  let har: Har;

  beforeAll(async () => {
    temp = await tempDir();
    sandbox = await startSandbox({ port: 0, entries: 12, contract: contract() });
    cassette = temp.file("session.yaml");
    const recorder = await startRecorder({ upstream: sandbox.url, cassette });
    await session(recorder.url, sandbox);
    await recorder.close();
    const exported = await runCli(["har", "export", "--cassette", cassette, "--out", temp.file("s.har")]);
    expect(exported.stderr).toBe("");
    expect(exported.code).toBe(0);
    har = JSON.parse(await readFile(temp.file("s.har"), "utf8")) as Har;
  });

  afterAll(async () => {
    await sandbox?.close();
    await temp?.remove();
  });

  it("exports a HAR 1.2 file that the HAR schema accepts, secrets still placeholders", async () => {
    expect(harSchemaErrors(har)).toEqual([]);
    expect(har.log.version).toBe("1.2");
    expect(har.log.entries).toHaveLength(5);
    const text = await readFile(temp.file("s.har"), "utf8");
    expect(text).not.toContain(sandbox.credentials.admin.clientSecret);
    expect(text).toContain(`client_secret=${placeholderFor(sandbox.credentials.admin.clientSecret)}`);
    expect(har.log.entries[2]?.request.url).toMatch(/continuationToken=/);
  });

  it("flags a HAR the schema refuses: the check can fail", () => {
    const broken = structuredClone(har) as unknown as { log: { entries: Record<string, unknown>[] } };
    delete broken.log.entries[0]?.request;
    expect(harSchemaErrors(broken)).not.toEqual([]);
  });

  it("imports it again into the same interactions: ids, dates, bodies, headers after redaction", async () => {
    const again = temp.file("again.yaml");
    const imported = await runCli(["har", "import", temp.file("s.har"), "--cassette", again]);
    expect(imported.code).toBe(0);
    expect(imported.stdout).toBe(
      `imported 5 of 5 entries of ${temp.file("s.har")} into ${again}, the service being ${sandbox.url}\n`,
    );
    const before = await loadCassette(cassette);
    const after = await loadCassette(again);
    expect(interactionsOf(after)).toEqual(interactionsOf(before));
    expect(after.header).toMatchObject({ upstream: sandbox.url, redaction: before.header.redaction });
  });

  it("gate --cassette judges a client against its session imported from HAR as against the recorded one", async () => {
    // The client's own session, recorded, exported to HAR and imported again.
    const recorded = temp.file("client.yaml");
    const recorder = await startRecorder({ upstream: sandbox.url, cassette: recorded });
    const c = sandbox.credentials;
    await promisify(execFile)(process.execPath, [clientPath("correct")], {
      env: {
        ASSOPAY_BASE_URL: recorder.url,
        ASSOPAY_CLIENT_ID: c.reader.clientId,
        ASSOPAY_CLIENT_SECRET: c.reader.clientSecret,
        ASSOPAY_ORG: c.organizationSlug,
        ASSOPAY_FORM_TYPE: c.formType,
        ASSOPAY_FORM_SLUG: c.formSlug,
      },
    });
    await recorder.close();
    const exported = temp.file("client.har");
    const imported = temp.file("client-imported.yaml");
    expect((await runCli(["har", "export", "--cassette", recorded, "--out", exported])).code).toBe(0);
    expect((await runCli(["har", "import", exported, "--cassette", imported])).code).toBe(0);
    // The client that held, and one that stops at a short page: the same verdicts from either cassette.
    for (const client of ["correct", "stop-short-page"]) {
      const verdicts = [];
      for (const file of [recorded, imported]) {
        const report = await gateClient(client, ["uniform"], { cassettes: [file], env: {} });
        verdicts.push(brokenRules(verdictOf(report, "uniform")));
      }
      expect(verdicts[1], client).toEqual(verdicts[0]);
      expect(verdicts[1]?.length === 0, client).toBe(client === "correct");
    }
  });

  it("refuses to overwrite: an existing cassette or HAR file is exit 2", async () => {
    const cassetteThere = await runCli(["har", "import", temp.file("s.har"), "--cassette", cassette]);
    expect(cassetteThere.code).toBe(2);
    expect(cassetteThere.stderr).toContain("already exists");
    const harThere = await runCli(["har", "export", "--cassette", cassette, "--out", temp.file("s.har")]);
    expect(harThere.code).toBe(2);
    expect(harThere.stderr).toContain("it exists");
  });
});

/** A HAR entry as a browser's devtools write one. */
function entry(
  url: string,
  more: {
    method?: string;
    at?: string;
    requestHeaders?: Record<string, string>;
    postData?: string;
    status?: number;
    responseHeaders?: Record<string, string>;
    text?: string;
    encoding?: string;
    resourceType?: string;
  } = {},
): HarEntry {
  const list = (headers: Record<string, string> = {}) =>
    Object.entries(headers).map(([name, value]) => ({ name, value }));
  return {
    startedDateTime: more.at ?? "2025-04-01T08:00:00.000Z",
    time: 12,
    request: {
      method: more.method ?? "GET",
      url,
      httpVersion: "HTTP/1.1",
      cookies: [],
      headers: list({ Host: new URL(url).host, "Sec-Fetch-Dest": "empty", ...more.requestHeaders }),
      queryString: [],
      ...(more.postData
        ? { postData: { mimeType: "application/x-www-form-urlencoded", text: more.postData } }
        : {}),
      headersSize: -1,
      bodySize: -1,
    },
    response: {
      status: more.status ?? 200,
      statusText: "",
      httpVersion: "HTTP/1.1",
      cookies: [],
      headers: list({ "Content-Type": "application/json; charset=utf-8", ...more.responseHeaders }),
      content: {
        size: 0,
        mimeType: "application/json",
        ...(more.text === undefined ? {} : { text: more.text }),
        ...(more.encoding ? { encoding: more.encoding } : {}),
      },
      redirectURL: "",
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { send: 0, wait: 10, receive: 2 },
    ...(more.resourceType ? { _resourceType: more.resourceType } : {}),
  };
}

describe("assopay har import: a browser's HAR", () => {
  let temp: Awaited<ReturnType<typeof tempDir>>;
  const api = "https://api.helloasso.example";
  const secret = "s3cr3t-client-value-42";
  const bearer = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI0MiJ9.c2lnbmF0dXJlLW9mLWEtand0";
  const items = { data: [{ id: 1, state: "Processed" }], pagination: { continuationToken: "+/=" } };
  const entries = [
    entry(`${api}/oauth2/token`, {
      method: "POST",
      at: "2025-04-01T08:00:01.250Z",
      postData: `grant_type=client_credentials&client_id=app-1&client_secret=${secret}`,
      text: JSON.stringify({ access_token: bearer, token_type: "bearer", expires_in: 1800 }),
    }),
    entry(`${api}/v5/organizations/club/items?pageSize=1`, {
      at: "2025-04-01T08:00:02.500Z",
      requestHeaders: { Authorization: `Bearer ${bearer}` },
      responseHeaders: { "Content-Encoding": "gzip" },
      text: JSON.stringify(items),
    }),
    entry(`${api}/v5/orders/1/files/2`, {
      at: "2025-04-01T08:00:03.000Z",
      requestHeaders: { Authorization: `Bearer ${bearer}` },
      responseHeaders: { "Content-Type": "application/pdf" },
      text: Buffer.from("%PDF-1.4 \u0000\u00ff binary").toString("base64"),
      encoding: "base64",
    }),
    entry(`${api}/favicon.ico`, { requestHeaders: { "Sec-Fetch-Dest": "image" }, text: "" }),
    entry(`${api}/v5/orders/1`, {
      method: "OPTIONS",
      requestHeaders: { "Access-Control-Request-Method": "GET" },
    }),
    entry("https://fonts.example/css?family=Inter", { requestHeaders: { "Sec-Fetch-Dest": "style" } }),
    entry("https://analytics.example/collect", { method: "POST", postData: "e=1" }),
    entry(`${api}/v5/orders/2`, { status: 0 }),
  ];

  let imported: Awaited<ReturnType<typeof runCli>>;
  beforeAll(async () => {
    temp = await tempDir();
    await writeFile(temp.file("browser.har"), JSON.stringify({ log: { version: "1.2", entries } }));
    imported = await runCli([
      "har",
      "import",
      temp.file("browser.har"),
      "--cassette",
      temp.file("browser.yaml"),
    ]);
  });
  afterAll(() => temp?.remove());

  it("keeps the service's calls, each with its date, and says what it left out and why", async () => {
    const out = temp.file("browser.yaml");
    const result = imported;
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`imported 3 of 8 entries of ${temp.file("browser.har")} into ${out}`);
    expect(result.stdout).toContain(
      `the service being ${api}; left out 2 to other hosts (fonts.example 1, analytics.example 1); 2 the browser's own (image 1, preflight 1); 1 never answered`,
    );
    const cassette = await loadCassette(out);
    expect(cassette.interactions.map((i) => [i.id, i.request.method, i.request.path, i.recordedAt])).toEqual([
      [1, "POST", "/oauth2/token", "2025-04-01T08:00:01.250Z"],
      [2, "GET", "/v5/organizations/club/items", "2025-04-01T08:00:02.500Z"],
      [3, "GET", "/v5/orders/1/files/2", "2025-04-01T08:00:03.000Z"],
    ]);
  });

  it("redacts as the recorder does: the same placeholders, in the body, the token and the header", async () => {
    const text = await readFile(temp.file("browser.yaml"), "utf8");
    expect(text).not.toContain(secret);
    expect(text).not.toContain(bearer);
    const cassette = await loadCassette(temp.file("browser.yaml"));
    const [token, listing] = cassette.interactions;
    expect(token?.request.body).toEqual({
      text: `grant_type=client_credentials&client_id=app-1&client_secret=${placeholderFor(secret)}`,
    });
    expect(token?.response.body).toMatchObject({ json: { access_token: placeholderFor(bearer) } });
    expect(listing?.request.headers.authorization).toBe(`Bearer ${placeholderFor(bearer)}`);
  });

  it("decodes bodies as the recorder does: gzip named in the headers, base64 content", async () => {
    const cassette = await loadCassette(temp.file("browser.yaml"));
    const [, listing, file] = cassette.interactions;
    expect(listing?.response.body).toEqual({ json: items, encoding: "gzip" });
    expect(listing?.request.query).toEqual({ pageSize: "1" });
    expect(file?.response.body).toEqual({
      base64: Buffer.from("%PDF-1.4 \u0000\u00ff binary").toString("base64"),
    });
  });

  it("takes a body a tool kept coded as it is", async () => {
    const coded = entry(`${api}/v5/orders/3`, {
      responseHeaders: { "Content-Encoding": "gzip" },
      text: gzipSync(JSON.stringify({ id: 3 })).toString("base64"),
      encoding: "base64",
    });
    await writeFile(temp.file("coded.har"), JSON.stringify({ log: { entries: [coded] } }));
    const out = temp.file("coded.yaml");
    expect((await runCli(["har", "import", temp.file("coded.har"), "--cassette", out])).code).toBe(0);
    const [order] = (await loadCassette(out)).interactions;
    expect(order?.response.body).toEqual({ json: { id: 3 }, encoding: "gzip" });
  });

  it("is replayed, linted and seeds a sandbox like a recorded cassette", async () => {
    const file = temp.file("browser.yaml");
    const replay = await startReplay({ cassettes: [file], port: 0 });
    try {
      const answer = await fetch(`${replay.url}/v5/organizations/club/items?pageSize=1`, {
        headers: { authorization: `Bearer ${placeholderFor(bearer)}` },
      });
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual(items);
    } finally {
      await replay.close();
    }
    const lint = await runCli(["lint", file, "--reporter", "json"]);
    expect(lint.code, lint.stderr).toBeLessThan(2);
    expect((JSON.parse(lint.stdout) as { interactions: unknown[] }).interactions).toHaveLength(3);
    const data = await runCli(["sandbox", "--from-cassette", file, "--print-data", "-"]);
    expect(data.code, data.stderr).toBe(0);
    expect(data.stdout).toContain(`id: app-1\n    secret: ${placeholderFor(secret)}`);
  });

  it("says what is wrong with a file that is not a HAR, exit 2", async () => {
    await writeFile(temp.file("not.har"), '{"log": {"entries": [\n  {"request": }\n]}}');
    const notJson = await runCli(["har", "import", temp.file("not.har"), "--cassette", temp.file("x.yaml")]);
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toContain(
      `${temp.file("not.har")} is not a HAR file assopay can import: it is not JSON`,
    );
    await writeFile(
      temp.file("no-url.har"),
      JSON.stringify({ log: { entries: [{ request: { method: "GET" } }] } }),
    );
    const noUrl = await runCli(["har", "import", temp.file("no-url.har"), "--cassette", temp.file("y.yaml")]);
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toContain("entry 0 has no request with a method and an absolute url");
  });

  it("refuses a missing or unknown action, a missing --cassette or HAR file, with a hint", async () => {
    for (const argv of [
      ["har"],
      ["har", "convert"],
      ["har", "import", temp.file("browser.har")],
      ["har", "import"],
      ["har", "export"],
    ]) {
      const result = await runCli(argv);
      expect(result.code, argv.join(" ")).toBe(2);
      expect(result.stderr, argv.join(" ")).toMatch(/^error\[usage\]: assopay har.*\nhint: /);
    }
  });

  it("documents its actions and flags in --help", () => {
    for (const word of [
      "import",
      "export",
      "--cassette",
      "--upstream",
      "--out",
      "--redact-pii",
      "ASSOPAY_CASSETTE_SALT",
    ])
      expect(harCommand.help).toContain(word);
  });
});
