import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { certificateEnv, childUrls } from "../../specs/pact/cert-store.js";
import type { PactChildConfig } from "../../specs/pact/child-protocol.js";

const local: PactChildConfig = {
  pactFile: "/tmp/some.json",
  broker: undefined,
  provider: "p",
  providerBaseUrl: "http://127.0.0.1:4000",
  apiRoot: "/v5",
  stateUrl: "http://127.0.0.1:4001/_pact/state",
  messages: {},
  messagesByPrefix: [],
  timeoutMs: 1000,
};
const chosenStore = { SSL_CERT_FILE: "/etc/ssl/certs/ca-certificates.crt", SSL_CERT_DIR: "/etc/ssl/certs" };

describe("the Pact child's certificate store", () => {
  const dirs: string[] = [];
  const scratch = () => {
    const dir = mkdtempSync(join(tmpdir(), "cert-store-"));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("is empty when every URL is plain http, even where the user chose a store", () => {
    const dir = scratch();
    const env = certificateEnv(childUrls(local), chosenStore, dir);
    expect(env).toEqual({ SSL_CERT_FILE: join(dir, "no-ca.pem"), SSL_CERT_DIR: join(dir, "no-ca") });
    expect(readFileSync(join(dir, "no-ca.pem"), "utf8")).toBe("");
    expect(readdirSync(join(dir, "no-ca"))).toEqual([]);
    const broker = { url: "http://broker.test", providerVersion: "1", providerBranch: undefined };
    expect(
      certificateEnv(childUrls({ ...local, broker }), { HTTP_PROXY: "http://proxy.test:3128" }, dir),
    ).toEqual(env);
  });

  it.each([
    ["the provider", { providerBaseUrl: "https://api.example.test" }, {}],
    ["the state URL", { stateUrl: "https://127.0.0.1:4001/_pact/state" }, {}],
    [
      "a broker",
      { broker: { url: "https://broker.test", providerVersion: "1", providerBranch: undefined } },
      {},
    ],
    ["a proxy", {}, { HTTP_PROXY: "https://proxy.test:3128" }],
    ["a URL it cannot read", { providerBaseUrl: "not a url" }, {}],
  ] as const)("leaves the store as it is where %s may need TLS", (_, change, env) => {
    const dir = scratch();
    expect(certificateEnv(childUrls({ ...local, ...change }), { ...chosenStore, ...env }, dir)).toEqual({});
    expect(existsSync(join(dir, "no-ca.pem"))).toBe(false);
  });
});
