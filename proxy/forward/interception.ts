import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { TLSSocket } from "node:tls";
import { checkHosts, hostOf } from "../intercept/hosts.js";
import { createLeafIssuer, type LeafIssuer, loadOrCreateCa } from "./ca.js";

/** What a recorder or replay server intercepts, as its options give it. */
export interface InterceptionOptions {
  /**
   * Hosts the server also answers for as a forward proxy (`HTTPS_PROXY`, `CONNECT host:443`, and
   * absolute-form `http://host/…`), and for the `assopay-contract/intercept` preload. Any other host is
   * refused: it is never an open proxy.
   * @example { intercept: ["api.helloasso.com", "api.helloasso-sandbox.com"] }
   */
  intercept?: readonly string[];
  /**
   * Where the CA that signs the intercepted hosts' certificates is kept, made on first use
   * (default `ASSOPAY_CA_DIR`, else `$XDG_CONFIG_HOME/assopay`, else `~/.config/assopay`).
   * @example { caDir: "/tmp/assopay-ca" }
   */
  caDir?: string;
}

/** A server's interception, ready: the hosts, the CA file clients must trust, the TLS contexts. */
export interface Interception {
  readonly hosts: ReadonlySet<string>;
  readonly caCertFile: string;
  readonly contextFor: LeafIssuer;
}

/**
 * Checks the hosts and loads (or makes) the CA; undefined when nothing is to be intercepted.
 *
 * @example
 * const interception = await prepareInterception(["api.helloasso.com"], defaultCaDir(process.env));
 */
export async function prepareInterception(
  hosts: readonly string[] | undefined,
  caDir: string,
): Promise<Interception | undefined> {
  const named = checkHosts(hosts ?? [], "--intercept");
  if (named.size === 0) return undefined;
  const ca = await loadOrCreateCa(caDir);
  return Object.freeze({ hosts: named, caCertFile: ca.certFile, contextFor: createLeafIssuer(ca) });
}

/**
 * Takes a `CONNECT host:443` for a named host: answers 200, then speaks TLS on the tunnel with the
 * host's certificate and hands the decrypted connection to the server, whose requests are then
 * origin-form like any other. Returns false (and does nothing) for any other target.
 */
export function acceptTunnel(
  interception: Interception,
  server: Server,
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
): boolean {
  const authority = req.url ?? "";
  const host = hostOf(authority);
  if (!interception.hosts.has(host) || !authority.endsWith(":443")) return false;
  socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
  if (head.length > 0) socket.unshift(head);
  const tls = new TLSSocket(socket, {
    isServer: true,
    secureContext: interception.contextFor(host),
    ALPNProtocols: ["http/1.1"],
  });
  tls.on("error", () => tls.destroy());
  socket.on("error", () => tls.destroy());
  server.emit("connection", tls);
  return true;
}

/**
 * An absolute-form request (`GET http://api.helloasso.com/v5/…`, from `HTTP_PROXY`) for a named host,
 * made origin-form in place. Returns false, leaving it alone, for any other target.
 */
export function acceptAbsoluteForm(interception: Interception, req: IncomingMessage): boolean {
  const target = req.url ?? "";
  if (!URL.canParse(target)) return false;
  const url = new URL(target);
  if (url.protocol !== "http:" || !interception.hosts.has(url.hostname.toLowerCase())) return false;
  req.url = `${url.pathname}${url.search}`;
  // RFC 9112 §3.2.2: the target's authority replaces whatever Host the request carried.
  req.headers.host = url.host;
  return true;
}
