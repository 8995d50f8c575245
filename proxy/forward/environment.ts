import { HOSTS_VARIABLE, TARGET_VARIABLE } from "../intercept/hosts.js";

/** What `assopay record|replay --intercept` prints: the variables, in the order they are printed. */
export type InterceptEnvironment = ReadonlyArray<readonly [name: string, value: string]>;

/**
 * The variables that send clients to a server intercepting `hosts`: the Node preload's, the forward
 * proxy's (`HTTPS_PROXY`, `HTTP_PROXY`) and the CA file for Node, Python requests and OpenSSL tools.
 *
 * @example
 * interceptEnvironment("http://127.0.0.1:8470", ["api.helloasso.com"], "/home/me/.config/assopay/ca-cert.pem");
 */
export function interceptEnvironment(
  url: string,
  hosts: Iterable<string>,
  caCertFile: string,
): InterceptEnvironment {
  return [
    [HOSTS_VARIABLE, [...hosts].join(",")],
    [TARGET_VARIABLE, url],
    ["NODE_OPTIONS", "--import assopay-contract/intercept"],
    ["HTTPS_PROXY", url],
    ["HTTP_PROXY", url],
    // curl and some others read only the lower-case names (curl never reads HTTP_PROXY).
    ["https_proxy", url],
    ["http_proxy", url],
    ["NODE_EXTRA_CA_CERTS", caCertFile],
    ["REQUESTS_CA_BUNDLE", caCertFile],
    ["SSL_CERT_FILE", caCertFile],
  ];
}

/** A value as a POSIX shell word: single-quoted when it holds anything but safe characters. */
function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'"'"'`)}'`;
}

/**
 * The variables as one block of `export NAME=value` lines, or as one JSON line (`--json`).
 *
 * @example
 * process.stdout.write(formatEnvironment(environment, "shell"));
 */
export function formatEnvironment(environment: InterceptEnvironment, format: "shell" | "json"): string {
  switch (format) {
    case "shell":
      return environment.map(([name, value]) => `export ${name}=${shellWord(value)}\n`).join("");
    case "json":
      return `${JSON.stringify(Object.fromEntries(environment))}\n`;
  }
}
