import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { networkInterfaces } from "node:os";
import type { Duplex } from "node:stream";
import { AssopayError } from "../errors.js";
import { problem, sendProblem } from "./problem.js";

/**
 * The header a caller adds to reach a control endpoint without a JSON body type. A browser cannot send
 * it cross-site without a CORS preflight, which none of our servers answers.
 */
export const CONTROL_HEADER = "x-assopay-control";

/** The flag that adds a name to the `Host` values a server answers (shown in every refusal). */
export const ALLOW_HOST_FLAG = "--allow-host";

/** Names a `Host` header may use for any local server (at any port, see `hostRefusal`). */
const LOOPBACK_NAMES = ["127.0.0.1", "localhost", "[::1]"] as const;

/** How many distinct admitted Host values a guard remembers (beyond them, each is parsed again). */
const ADMITTED_KEPT = 64;

/** Addresses that bind every interface: the machine's own addresses then name the server too. */
const WILDCARDS = new Set(["0.0.0.0", "::", "[::]"]);

/** The option every server takes: names besides its own that a `Host` header may use. */
export interface AllowHostOptions {
  /**
   * Host names (or addresses) the server also answers for: a tunnel's name, a LAN name. Without them,
   * only 127.0.0.1, localhost, [::1] (and the bound address).
   * @example { allowHosts: ["my-laptop.lan"] }
   */
  allowHosts?: readonly string[];
}

/** Checks `--allow-host` values once, at the boundary; a mistake is an `AssopayError` ('usage'). */
export function checkAllowHosts(names: readonly string[] | undefined): readonly string[] {
  return Object.freeze((names ?? []).map(checkAllowedName));
}

/** How a server decides who may drive it; resolved once, when the server starts. */
export interface LocalGuardOptions extends AllowHostOptions {
  /** Who is answering, for refusals: `"replay server"`, `"sandbox"`. */
  readonly what: string;
  /** The address the server binds (default `127.0.0.1`); a specific address also names the server. */
  readonly bindHost?: string | undefined;
  /** Names the server answers for by construction (intercepted hosts, a receiver's public URL). */
  readonly servedHosts?: Iterable<string> | undefined;
}

/** Why a request was refused, as its problem document says it. */
export interface GuardRefusal {
  readonly status: 403 | 415 | 421;
  readonly kind: "host-refused" | "cross-site-refused" | "control-needs-json";
  readonly title: string;
  readonly detail: string;
}

/** A server's guard: every request's `Host`, and who may reach its state-changing control endpoints. */
export interface LocalGuard {
  /**
   * Checks the `Host`, then (with `control` or `crossSite`) the rest; answers the refusal itself and
   * returns false when the request must not go on.
   */
  admit(req: IncomingMessage, res: ServerResponse, check?: "host" | "cross-site" | "control"): boolean;
}

/** The lower-case host name of a name given by the user or a `Host` header (`[::1]` keeps its brackets). */
function parseAuthority(authority: string): { name: string; port: string } | undefined {
  if (authority === "" || /[\s/?#@\\]/.test(authority)) return undefined;
  if (!URL.canParse(`http://${authority}/`)) return undefined;
  const url = new URL(`http://${authority}/`);
  return { name: url.hostname.replace(/\.$/, ""), port: url.port };
}

/** Checks one `--allow-host` value: a host name or address, without scheme, port or path. */
function checkAllowedName(raw: string): string {
  const trimmed = raw.trim();
  // A port, even the default one the URL parser drops (`name:80`), is not part of a name.
  const port = /^[^[]*:|\]:/.test(trimmed);
  const parsed = parseAuthority(trimmed);
  if (parsed === undefined || port || parsed.name === "") {
    throw new AssopayError("usage", `${ALLOW_HOST_FLAG}: "${raw}" is not a host name`, {
      hint: `name a host only, without scheme, port or path, e.g. ${ALLOW_HOST_FLAG} my-laptop.lan`,
    });
  }
  return parsed.name;
}

/** The machine's own addresses, as a `Host` header names them. */
function interfaceAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flatMap((list) => list ?? [])
    .map((entry) => (entry.family === "IPv6" ? `[${entry.address.split("%")[0] ?? ""}]` : entry.address));
}

/**
 * Creates the guard of one server. Host names are checked here, once: a bad `--allow-host` is an
 * `AssopayError` ('usage').
 *
 * @example
 * const guard = createLocalGuard({ what: "replay server", allowHosts: ["my-laptop.lan"] });
 * createServer((req, res) => { if (guard.admit(req, res, "cross-site")) serve(req, res); });
 */
export function createLocalGuard(options: LocalGuardOptions): LocalGuard {
  const bind = options.bindHost ?? "127.0.0.1";
  const ownNames = new Set<string>(LOOPBACK_NAMES);
  if (WILDCARDS.has(bind)) for (const address of interfaceAddresses()) ownNames.add(address);
  else {
    const parsed = parseAuthority(bind.includes(":") && !bind.startsWith("[") ? `[${bind}]` : bind);
    if (parsed) ownNames.add(parsed.name);
  }
  const extra = new Set<string>();
  for (const name of options.allowHosts ?? []) extra.add(checkAllowedName(name));
  for (const name of options.servedHosts ?? []) extra.add(checkAllowedName(name));
  const names: ReadonlySet<string> = new Set([...ownNames, ...extra]);
  const what = options.what;
  // Host values already admitted, as sent: a client sends the same one on every request, so parsing it
  // once keeps the check off the replay's hot path.
  const admitted = new Set<string>();

  // The refusal of a `Host` that names another machine (DNS rebinding, a stray client), if so.
  // Any port: a browser always names the port it connects to, so the port tells no rebinding page apart,
  // while a proxy in front (Pact's verifier, a container's port mapping) names its own.
  const hostRefusal = (req: IncomingMessage): GuardRefusal | undefined => {
    const header = req.headers.host;
    // HTTP/1.0 without Host: no browser sends that, so no page can be behind it.
    if (header === undefined && req.httpVersion === "1.0") return undefined;
    if (header !== undefined && admitted.has(header)) return undefined;
    const parsed = parseAuthority(header ?? "");
    if (parsed && names.has(parsed.name)) {
      if (header !== undefined && admitted.size < ADMITTED_KEPT) admitted.add(header);
      return undefined;
    }
    return {
      status: 421,
      kind: "host-refused",
      title: `The ${what} answers only its own address`,
      detail: `Host "${header ?? ""}" refused: the ${what} answers 127.0.0.1, localhost and [::1]${extra.size > 0 ? `, ${[...extra].join(", ")}` : ""}; to reach it under another name (a tunnel, a LAN name), start it with ${ALLOW_HOST_FLAG} NAME`,
    };
  };

  // The refusal of a browser request from another site (`Origin`, `Sec-Fetch-Site`), if so.
  const crossSiteRefusal = (req: IncomingMessage): GuardRefusal | undefined => {
    const origin = req.headers.origin;
    const fetchSite = req.headers["sec-fetch-site"];
    let foreign: string | undefined;
    if (origin !== undefined) {
      const own =
        URL.canParse(origin) &&
        URL.canParse(`${new URL(origin).protocol}//${req.headers.host ?? ""}`) &&
        new URL(origin).host === new URL(`${new URL(origin).protocol}//${req.headers.host ?? ""}`).host;
      if (!own) foreign = `Origin "${origin}"`;
    }
    if (foreign === undefined && (fetchSite === "cross-site" || fetchSite === "same-site"))
      foreign = `Sec-Fetch-Site "${fetchSite}"`;
    if (foreign === undefined) return undefined;
    return {
      status: 403,
      kind: "cross-site-refused",
      title: `The ${what} takes no requests from web pages of other sites`,
      detail: `${foreign} refused: a page of another site may not drive the ${what}; send the request from a program (no Origin header), or from a page the ${what} itself serves`,
    };
  };

  // Cross-site refusal, or a body type a simple cross-site request can send (no JSON, no control header).
  const controlRefusal = (req: IncomingMessage): GuardRefusal | undefined => {
    const crossSite = crossSiteRefusal(req);
    if (crossSite) return crossSite;
    const type = (req.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
    const json = type === "application/json" || /^application\/[^/]+\+json$/.test(type);
    if (json || (req.headers[CONTROL_HEADER] ?? "") !== "") return undefined;
    return {
      status: 415,
      kind: "control-needs-json",
      title: `The ${what}'s control endpoints need a JSON body or the ${CONTROL_HEADER} header`,
      detail: `${req.method ?? ""} ${(req.url ?? "").split("?")[0] ?? ""} with content-type "${req.headers["content-type"] ?? ""}" refused: send content-type: application/json, or the header "${CONTROL_HEADER}: 1" (a simple cross-site request, such as a form post, can send neither)`,
    };
  };

  return Object.freeze({
    admit(req: IncomingMessage, res: ServerResponse, check: "host" | "cross-site" | "control" = "host") {
      const refusal =
        hostRefusal(req) ??
        (check === "control"
          ? controlRefusal(req)
          : check === "cross-site"
            ? crossSiteRefusal(req)
            : undefined);
      if (!refusal) return true;
      // A problem document, the connection closed; the body is not read.
      sendProblem(res, problem(refusal.kind, refusal.status, refusal.title, refusal.detail), {
        connection: "close",
      });
      req.resume();
      return false;
    },
  });
}

/**
 * Gives a socket the server handed over (CONNECT, Upgrade) an error path: a peer that resets it then
 * costs that socket, never the process. Node's own listener is gone from such sockets.
 */
export function guardSocket(socket: Duplex): void {
  if (socket.listenerCount("error") === 0) socket.on("error", () => socket.destroy());
}

/**
 * Every socket of `server` keeps an error path. Node's own answers a malformed request or a reset before
 * a response (400, 408, 431, or the socket dropped) for sockets it still holds; the sockets it hands over
 * (`connect`, `upgrade`) get {@link guardSocket} before any handler writes to them (call it after the
 * server's own `connect` and `upgrade` handlers are on).
 */
export function guardSockets(server: Server): void {
  // Only where a handler takes them: without one, Node answers CONNECT and Upgrade itself.
  for (const event of ["connect", "upgrade"] as const) {
    if (server.listenerCount(event) > 0)
      server.prependListener(event, (_req: IncomingMessage, socket: Duplex) => guardSocket(socket));
  }
}
