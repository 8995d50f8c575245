import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { gateCommand } from "../../cli/commands/gate.js";
import { notifyCommand } from "../../cli/commands/notify.js";
import { placeholderFor } from "../../core/secrets/placeholder.js";
import { redactSecretData, redactSecretText } from "../../core/secrets/text.js";
import { runVerb } from "../gate/run-verb.js";
import { clientPath } from "../gate/support.js";
import { brokerListener } from "../pact/support/broker-listener.js";
import { runCli } from "../support/run-cli.js";

/** Forms a secret may take in a report: as it is, URL-encoded, JSON-escaped. */
const forms = (value: string) => [value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)];
const leaks = (text: string, secrets: string[]) =>
  secrets.filter((s) => forms(s).some((f) => text.includes(f)));

const servers: Server[] = [];
afterAll(async () => {
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
});

/** A loopback server that answers every request with `status`. */
async function answering(status: number): Promise<string> {
  const server = createServer((_, res) => res.writeHead(status).end());
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("planted secrets in what verify, gate and notify write", () => {
  it("verify: a broker URL's password is in neither the pretty nor the JSON report", async () => {
    const password = "Br0ker-Pa55word-planted";
    const broker = `http://ci:${password}@${await answering(503)}`;
    const args = [
      "verify",
      "--only",
      "pact",
      "--publish-results",
      "--broker-url",
      broker,
      "--provider-version",
      "1",
    ];
    for (const reporter of ["pretty", "json"]) {
      const run = await runCli([...args, "--reporter", reporter]);
      const written = run.stdout + run.stderr;
      expect(written, reporter).toContain(`http://ci:${placeholderFor(password)}@127.0.0.1`);
      expect(leaks(written, [password]), reporter).toEqual([]);
    }
  });

  it("contracts publish: the URL's password reaches the broker as credentials, never the output", async () => {
    const password = "Publ1sh-Pa55-planted";
    const broker = await brokerListener({ publishStatus: 400 });
    try {
      const url = broker.url.replace("http://", `http://ci:${password}@`);
      const run = await runCli(["contracts", "publish", "--broker-url", url, "--consumer-app-version", "1"]);
      expect(run.code).toBe(1);
      const auth = broker.requests.map((r) => r.headers.authorization).find((a) => a !== undefined);
      expect(auth).toBe(`Basic ${Buffer.from(`ci:${password}`).toString("base64")}`);
      expect(leaks(run.stdout + run.stderr, [password])).toEqual([]);
      const bad = await runCli(["contracts", "publish", "--broker-url", `ftp://ci:${password}@h.example`]);
      expect(bad.code).toBe(2);
      expect(leaks(bad.stderr, [password])).toEqual([]);
    } finally {
      await broker.close();
    }
  });

  it("gate: an SDK's client_secret in a query is not in the JSON report, and the request still is", async () => {
    const planted = "sdk-client-secret-planted-0042";
    const run = await runVerb(
      gateCommand,
      [
        "--entries",
        "45",
        "--max-requests",
        "60",
        "--scenario",
        "tricky-tokens",
        "--reporter",
        "json",
        "--",
        process.execPath,
        clientPath("secret-in-query"),
      ],
      { ASSOPAY_TEST_PLANTED_SECRET: planted },
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`client_secret=${placeholderFor(planted)}`);
    expect(leaks(run.stdout, [planted])).toEqual([]);
  });

  it("notify: a receiver URL's password and the signing key are not in the report", async () => {
    const password = "Rece1ver-Pa55-planted";
    const key = "c2lnbmluZy1rZXktcGxhbnRlZC1pbi1ub3RpZnk";
    for (const reporter of ["pretty", "json"]) {
      const run = await runVerb(notifyCommand, [
        "--to",
        `http://hook:${password}@${await answering(200)}/hook`,
        "--key",
        key,
        "--timeout",
        "2",
        "--reporter",
        reporter,
      ]);
      const written = run.stdout + run.stderr;
      expect(written, reporter).toContain(`hook:${placeholderFor(password)}@127.0.0.1`);
      expect(leaks(written, [password, key]), reporter).toEqual([]);
    }
  });
});

describe("the report redactor: what it replaces, what it keeps", () => {
  const cases: [string, string, string][] = [
    ["a URL's password", "GET http://u:s3cret-pw@h.example/x", "GET http://u:<P>@h.example/x"],
    ["OAuth code and state in a query", "/cb?code=abc123&state=xyz789", "/cb?code=<P>&state=<P>"],
    ["a JSON secret pair", '{"client_secret": "cs-value-1"}', '{"client_secret": "<P>"}'],
    ["a credential header line", "Authorization: Bearer tok-123-abc", "Authorization: Bearer <P>"],
  ];
  for (const [what, text, shape] of cases) {
    it(`replaces ${what}`, () => {
      expect(redactSecretText(text).replace(/<secret:[0-9a-f]{16}>/g, "<P>")).toBe(shape);
    });
  }
  it("keeps legal look-alikes: country_code, statement, a JSON state, a masked credential, a URL without password", () => {
    for (const text of [
      "/forms?country_code=FR&statement=monthly",
      '{"state": "Authorized", "code": "Error"}',
      "http://u@h.example/x and https://h.example/a:b@c",
      "Authorization: Bearer abcdef…",
      "status code 404; 3 tokens left",
    ]) {
      expect(redactSecretText(text)).toBe(text);
    }
    expect(redactSecretData({ headers: { authorization: "Bearer abcdef…" }, tokens: 3 })).toEqual({
      headers: { authorization: "Bearer abcdef…" },
      tokens: 3,
    });
  });
});
