import { readFile, stat } from "node:fs/promises";
import { connect } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { recordCommand } from "../../cli/commands/record.js";
import { replayCommand } from "../../cli/commands/replay.js";
import { startRecorder } from "../../proxy/record/server.js";
import { perTest, quietEnvironment, run, runVerb } from "./support/intercept.js";

const HOST = "api.helloasso.com";
const { defer, scratch, upstream } = perTest("assopay-forward-");

/**
 * curl with the proxy variables the verb printed, and nothing else of the machine's. `--resolve` pins
 * the intercepted host to 127.0.0.1 on ports 443 and 80, where nothing listens: if curl ever bypassed
 * the proxy, it would fail on loopback, never reach the live host (and it never asks a DNS server).
 */
function curl(variables: Record<string, string>, args: string[]) {
  const env = {
    ...quietEnvironment(),
    HTTPS_PROXY: variables.HTTPS_PROXY,
    https_proxy: variables.https_proxy,
    http_proxy: variables.http_proxy,
  };
  const pinned = ["--resolve", `${HOST}:443:127.0.0.1`, "--resolve", `${HOST}:80:127.0.0.1`];
  return run("curl", ["--silent", "--show-error", ...pinned, ...args], env);
}

/** The three requests of the session: GET and POST over https (CONNECT), GET over plain http. */
async function session(variables: Record<string, string>): Promise<string[]> {
  const ca = ["--cacert", variables.SSL_CERT_FILE ?? ""];
  const auth = ["-H", "authorization: Bearer at_CurlClientToken0123456789"];
  const results = [
    await curl(variables, [...ca, ...auth, `https://${HOST}/v5/users/me/organizations`]),
    await curl(variables, [
      ...ca,
      ...auth,
      ...["-H", "content-type: application/json", "--data", '{"totalAmount":1200}'],
      `https://${HOST}/v5/organizations/asso/checkout-intents`,
    ]),
    await curl(variables, [`http://${HOST}/v5/public/ping?x=1`]),
  ];
  return results.map((r) => r.stdout);
}

/** A fresh upstream and a recorder of it that intercepts HOST (its CA in a scratch folder), closed after the test. */
async function interceptingRecorder() {
  const dir = await scratch();
  const service = await upstream();
  const recorder = await startRecorder({
    upstream: service.url,
    cassette: join(dir, "x.yaml"),
    intercept: [HOST],
    caDir: join(dir, "ca"),
  });
  defer(() => recorder.close());
  return { service, recorder };
}

/** The raw answer to one request written on a fresh connection. */
function raw(url: string, text: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(text));
    let answer = "";
    socket.on("data", (chunk) => {
      answer += String(chunk);
      if (answer.includes("\r\n\r\n") && answer.startsWith("HTTP/1.1 200 Connection")) socket.destroy();
    });
    socket.on("close", () => resolve(answer));
    socket.on("error", reject);
  });
}

describe("the forward proxy (HTTPS_PROXY / HTTP_PROXY) with the generated CA", () => {
  it("records curl calling https://api.helloasso.com through HTTPS_PROXY, then replays it", async () => {
    const dir = await scratch();
    const service = await upstream();
    const cassette = join(dir, "curl.yaml");
    const common = ["--port", "0", "--intercept", HOST, "--ca-dir", join(dir, "ca"), "--json", "--quiet"];
    const recorder = runVerb(
      recordCommand,
      ["--upstream", service.url, "--cassette", cassette, ...common],
      {},
    );
    const recorded = await session(await recorder.json());
    expect(await recorder.stop()).toBe(0);
    expect(service.seen.map((s) => `${s.method} ${s.path} ${s.body}`)).toEqual([
      "GET /v5/users/me/organizations ",
      'POST /v5/organizations/asso/checkout-intents {"totalAmount":1200}',
      "GET /v5/public/ping?x=1 ",
    ]);
    expect(JSON.parse(recorded[1] ?? "")).toMatchObject({ answer: 2, method: "POST" });
    const text = await readFile(cassette, "utf8");
    expect(text).toContain(`upstream: ${service.url}/`);
    expect(text).not.toContain("CurlClientToken");

    await service.close();
    const replay = runVerb(replayCommand, ["--cassette", cassette, ...common], {});
    const replayed = await session(await replay.json());
    await replay.stop();
    expect(replayed).toEqual(recorded);
    expect(service.seen).toHaveLength(3);
  });

  it("presents certificates of its own CA: a client that does not trust it refuses the connection", async () => {
    const { recorder } = await interceptingRecorder();
    const variables = { HTTPS_PROXY: recorder.url, https_proxy: recorder.url, http_proxy: recorder.url };
    const untrusted = await curl(variables, [`https://${HOST}/v5/x`]).catch(
      (error: { code: number }) => error,
    );
    expect((untrusted as { code: number }).code).toBe(60); // curl: peer certificate cannot be authenticated
    const ca = recorder.interception?.caCertFile ?? "";
    const trusted = await curl(variables, ["--cacert", ca, `https://${HOST}/v5/x`]);
    expect(JSON.parse(trusted.stdout)).toMatchObject({ path: "/v5/x" });
  });

  it("keeps the CA private (0600 files in a 0700 folder) and reuses it on the next start", async () => {
    const dir = join(await scratch(), "config", "assopay");
    const service = await upstream();
    const start = async (name: string) => {
      const r = await startRecorder({
        upstream: service.url,
        cassette: join(dir, "..", name),
        intercept: [HOST],
        caDir: dir,
      });
      await r.close();
      return r.interception?.caCertFile ?? "";
    };
    const first = await start("a.yaml");
    const before = await readFile(first, "utf8");
    expect(await start("b.yaml")).toBe(first);
    expect(await readFile(first, "utf8")).toBe(before);
    expect((await stat(first)).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, "ca-key.pem"))).mode & 0o777).toBe(0o600);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
  });

  it("tunnels only the named hosts on 443; any other CONNECT or absolute URL gets a 403 problem", async () => {
    const { service, recorder } = await interceptingRecorder();
    const tunnel = (target: string) =>
      raw(recorder.url, `CONNECT ${target} HTTP/1.1\r\nhost: ${target}\r\n\r\n`);
    expect(await tunnel(`${HOST}:443`)).toMatch(/^HTTP\/1\.1 200 Connection Established\r\n/);
    expect(await tunnel(`API.HelloAsso.com:443`)).toMatch(/^HTTP\/1\.1 200 /);
    for (const refused of ["example.com:443", `${HOST}:22`, `${HOST}.evil.test:443`, "127.0.0.1:443"]) {
      const answer = await tunnel(refused);
      expect(answer).toMatch(/^HTTP\/1\.1 403 /);
      expect(answer).toContain(`CONNECT ${refused} refused: only ${HOST} on port 443 are intercepted`);
    }
    const absolute = (url: string) =>
      raw(recorder.url, `GET ${url} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n`);
    expect(await absolute("http://example.com/v5/x")).toMatch(/^HTTP\/1\.1 403 /);
    expect(await absolute(`https://${HOST}/v5/x`)).toMatch(/^HTTP\/1\.1 403 /);
    expect(await absolute(`http://${HOST}/v5/y`)).toMatch(/^HTTP\/1\.1 200 /);
    expect(service.seen.map((s) => s.path)).toEqual(["/v5/y"]);
  });
});
