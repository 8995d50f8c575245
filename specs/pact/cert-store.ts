import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { PactChildConfig } from "./child-protocol.js";

const PROXY_VARIABLES = ["HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"];

/** Every URL Pact's verifier contacts for a child config: the provider, the state URL, a broker. */
export function childUrls(config: PactChildConfig): string[] {
  return [config.providerBaseUrl, config.stateUrl, ...(config.broker ? [config.broker.url] : [])];
}

/**
 * The environment of a Pact program (Rust), as to certificates, for a run that contacts `urls`.
 *
 * Pact's verifier makes a new HTTP client for its requests, and each new client loads the machine's
 * whole CA store: the bundle twice and every file of `/etc/ssl/certs`. In one run of the 61 interactions
 * on this machine that was 406 loads (strace), 1.4 s of the check's 2.4 s. When every URL the program
 * may contact (a proxy's from `env` included) is plain `http:`, no certificate is ever used, whichever
 * store is set: the program gets an empty one (`SSL_CERT_FILE` an empty file and `SSL_CERT_DIR` an
 * empty folder, both made in `scratchDir`). Where any URL is `https:`, the environment is left as it is.
 *
 * @example
 * // a local sandbox: { SSL_CERT_FILE: "<scratch>/no-ca.pem", SSL_CERT_DIR: "<scratch>/no-ca" }
 * certificateEnv(childUrls(config), process.env, scratchDir);
 */
export function certificateEnv(
  urls: readonly string[],
  env: NodeJS.ProcessEnv,
  scratchDir: string,
): Record<string, string> {
  const proxies = PROXY_VARIABLES.flatMap((name) => (env[name] ? [env[name]] : []));
  const plain = [...urls, ...proxies].every((url) => URL.canParse(url) && new URL(url).protocol === "http:");
  if (!plain) return {};
  const file = join(scratchDir, "no-ca.pem");
  const dir = join(scratchDir, "no-ca");
  writeFileSync(file, "");
  mkdirSync(dir, { recursive: true });
  return { SSL_CERT_FILE: file, SSL_CERT_DIR: dir };
}
