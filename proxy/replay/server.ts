import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { collectGarbage } from "../../core/collect.js";
import { readBodyOrRefuse } from "../../core/http/body.js";
import { createLocalGuard, guardSockets } from "../../core/http/local-guard.js";
import { startServer } from "../../core/http/server.js";
import { isJsonType } from "../cassette/body.js";
import type { StoredHeaders } from "../cassette/format.js";
import { createCassetteValidator } from "../cassette/schema.js";
import { type Interception, prepareInterception } from "../forward/interception.js";
import { refuseConnect, refuseNonOriginForm } from "../http/guard.js";
import { firstHeader } from "../http/message.js";
import { openCassette } from "../load-cassette.js";
import { MAX_BODY_REMEDY } from "../options.js";
import { cachedResponder, type HeldResponse } from "./held.js";
import {
  type ReplayOptions,
  type ResolvedReplayOptions,
  resolveReplayOptions,
  timelineView,
} from "./options.js";
import { cassetteWarnings, type ReplayAnswer, Replayer } from "./replayer.js";
import { incomingRequest } from "./serve.js";
import { KeyMemo } from "./start-over-map.js";

/** Response headers whose URLs are rewritten (bodies are rewritten when they are text). */
const URL_HEADERS = ["location", "content-location", "link"] as const;

const TEXT_TYPE = /^(text\/|application\/(.*\+)?(json|xml|javascript|x-www-form-urlencoded)\b)/i;

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/**
 * The origins a cassette's responses point back to: the upstream's own, and, when its host has a parent
 * domain (`api.helloasso-sandbox.com`), the https origins of that domain's other hosts
 * (`www.helloasso-sandbox.com`, where checkout redirect URLs lead).
 */
export function recordedOrigins(upstream: string): string[] {
  const url = new URL(upstream);
  const labels = url.hostname.split(".");
  const isName = labels.length >= 3 && !/^\d+$/.test(labels[labels.length - 1] ?? "");
  return isName ? [url.origin, `https://*.${labels.slice(1).join(".")}`] : [url.origin];
}

/** Builds the pattern for a set of origins: each as written and JSON-escaped (`https:\/\/`), whole origins only. */
function originPattern(origins: readonly string[]): RegExp | undefined {
  const alternatives = origins.map((origin) => {
    const [scheme, rest = ""] = origin.split("://");
    const host = escapeRegex(rest).replace(/^\\\*\\\./, "[A-Za-z0-9-]+(?:\\.[A-Za-z0-9-]+)*\\.");
    return `${escapeRegex(scheme ?? "")}:(?:\\/\\/|\\\\/\\\\/)${host}`;
  });
  if (alternatives.length === 0) return undefined;
  // Not followed by more of a host name or a port: https://api.example.com.evil is left alone.
  return new RegExp(`(?:${alternatives.join("|")})(?![A-Za-z0-9.:-])`, "g");
}

/** Replaces recorded origins in text; `\/\/` (JSON-escaped slashes) stays escaped. */
function replaceIn(text: string, pattern: RegExp, to: string): string {
  const escaped = to.replace(/\//g, "\\/");
  return text.replace(pattern, (found) => (found.includes("\\/") ? escaped : to));
}

function isText(held: HeldResponse): boolean {
  const type = firstHeader(held.headers, "content-type");
  return held.json || isJsonType(type) || (type !== undefined && TEXT_TYPE.test(type));
}

/**
 * Rewrites a recorded response so that it points at the replay rather than the recorded service: the
 * recorded origins in a text or JSON body (file URLs, checkout redirect URLs) and in `Location`,
 * `Content-Location` and `Link` headers become `to` (`http://127.0.0.1:PORT`). Keeps one rewritten copy
 * per response and origin, so that the same object is served each time (what the server prepared for it
 * is used again); a response with nothing to rewrite is returned as it is.
 */
export class OriginRewriter {
  private readonly pattern: RegExp | undefined;
  private readonly done = new Map<string, WeakMap<HeldResponse, HeldResponse>>();

  constructor(origins: readonly string[]) {
    this.pattern = originPattern([...new Set(origins)]);
  }

  rewrite(held: HeldResponse, to: string): HeldResponse {
    const pattern = this.pattern;
    if (!pattern) return held;
    if (!this.done.has(to)) this.done.set(to, new WeakMap());
    const cache = this.done.get(to) as WeakMap<HeldResponse, HeldResponse>;
    const known = cache.get(held);
    if (known) return known;
    let headers: StoredHeaders = held.headers;
    for (const name of URL_HEADERS) {
      const value = headers[name];
      if (value === undefined) continue;
      const next = Array.isArray(value)
        ? value.map((v) => replaceIn(v, pattern, to))
        : replaceIn(value, pattern, to);
      if (JSON.stringify(next) !== JSON.stringify(value)) headers = { ...headers, [name]: next };
    }
    let bytes = held.bytes;
    if (bytes.length > 0 && isText(held)) {
      const text = bytes.toString("utf8");
      const next = replaceIn(text, pattern, to);
      if (next !== text) bytes = Buffer.from(next, "utf8");
    }
    const out = bytes === held.bytes && headers === held.headers ? held : { ...held, headers, bytes };
    cache.set(held, out);
    return out;
  }
}

/** The path that starts every sequence over (`POST`). */
export const RESET_PATH = "/__assopay/reset";

/** A running replay server. */
export interface RunningReplay {
  /** Its base URL, `http://127.0.0.1:PORT`. */
  readonly url: string;
  /** The port it listens on. */
  readonly port: number;
  /** The address it is bound to. */
  readonly host: string;
  /** Interactions it can serve (notifications excluded). */
  readonly interactions: number;
  /** Warnings from loading the cassettes (skipped incomplete documents, salt mismatch). */
  readonly warnings: readonly string[];
  /**
   * Starts every sequence over: identical requests get their recordings from the first again, as after a
   * restart (what `POST /__assopay/reset` does).
   */
  reset(): void;
  /** With `intercept`: the hosts it also answers for as a forward proxy, and the CA file to trust. */
  readonly interception: Pick<Interception, "hosts" | "caCertFile"> | undefined;
  /** Stops it; requests in progress finish first. */
  close(): Promise<void>;
}

/** True when a request declares no body (no length, or zero, and no chunked transfer). */
function bodyless(req: IncomingMessage): boolean {
  const length = req.headers["content-length"];
  return (length === undefined || length === "0") && req.headers["transfer-encoding"] === undefined;
}

function isReset(req: IncomingMessage): boolean {
  const url = req.url ?? "";
  return req.method === "POST" && (url === RESET_PATH || url.startsWith(`${RESET_PATH}?`));
}

/** Addresses that bind every interface: the client's Host header says how it reached the replay. */
const WILDCARD = new Set(["0.0.0.0", "::", "[::]"]);

/** `http://` and the Host the client sent (when it is a plain host and port), else the replay's URL. */
function hostOrigin(req: IncomingMessage, fallback: string): string {
  const host = req.headers.host;
  return host && /^[A-Za-z0-9.-]+(:\d+)?$|^\[[0-9A-Fa-f:.]+\](:\d+)?$/.test(host)
    ? `http://${host}`
    : fallback;
}

/**
 * Reads the cassettes' headers, then streams their interactions into the index, one document at a time:
 * each parsed document is garbage as soon as it is indexed, and nothing else of what was read is kept.
 */
async function loadReplayer(
  resolved: ResolvedReplayOptions,
): Promise<{ replayer: Replayer; warnings: string[]; rewriter: OriginRewriter | undefined }> {
  const validator = createCassetteValidator();
  const opened = await Promise.all(
    resolved.cassettes.map((file) =>
      openCassette(file, {
        validator,
        secretSalt: resolved.secretSalt,
        onNotice: (message) => resolved.onEvent({ kind: "warning", message }),
      }),
    ),
  );
  const cassettes = opened.map((o) => o.cassette);
  const replayer = new Replayer(cassettes, {
    at: resolved.at,
    view: await timelineView(resolved),
    secretSalt: resolved.secretSalt,
    matchRules: resolved.matchRules,
  });
  for (const cassette of opened) await cassette.read((interaction) => replayer.index.add(interaction));
  const warnings = cassetteWarnings(cassettes, resolved.secretSalt);
  for (const message of warnings) resolved.onEvent({ kind: "warning", message });
  const rewriter = resolved.keepOrigins
    ? undefined
    : new OriginRewriter(cassettes.flatMap((c) => recordedOrigins(c.header.upstream)));
  return { replayer, warnings, rewriter };
}

/**
 * Serves recorded cassettes over HTTP: each request gets the recorded response of the matching
 * interaction (method, path, query, body), identical requests in recorded order, and a miss gets a 501
 * problem naming the closest recorded requests and what differs. With `at`, the timeline is applied.
 *
 * @example
 * const replay = await startReplay({ cassettes: "recordings/pagination-crawl.yaml", at: "2025-07-01" });
 * const page = await fetch(`${replay.url}/v5/organizations/asso/forms/Event/gala/items`);
 * await replay.close();
 */
export async function startReplay(options: ReplayOptions): Promise<RunningReplay> {
  const resolved = resolveReplayOptions(options);
  const { onEvent } = resolved;
  const { replayer, warnings, rewriter } = await loadReplayer(resolved);
  const interception = await prepareInterception(resolved.intercept, resolved.caDir);
  // What was loaded and not indexed (the parsed documents, the files' text) is garbage now: reclaimed
  // once here, rather than carried in the old generation for as long as the server runs.
  collectGarbage();
  const respond = cachedResponder();
  // Who may drive it: its own Host names, and no page of another site.
  const guard = createLocalGuard({
    what: "replay server",
    bindHost: resolved.host,
    allowHosts: resolved.allowHosts,
    servedHosts: interception?.hosts,
  });
  // The replay's own origin for a request (its URL, or the Host the client used when bound to all
  // addresses); set once listening: the port is known only then.
  let own = "";
  const origin = WILDCARD.has(resolved.host) ? (req: IncomingMessage) => hostOrigin(req, own) : () => own;

  /** Sends an answer, its recorded origins rewritten to the replay's unless they are kept. */
  const send = (req: IncomingMessage, res: ServerResponse, method: string, answered: ReplayAnswer) =>
    respond(
      res,
      method,
      rewriter?.rewrite(answered.response, origin(req)) ?? answered.response,
      answered.headers,
    );

  const answerInFull = async (req: IncomingMessage, res: ServerResponse, line: string | undefined) => {
    const body = await readBodyOrRefuse(req, res, {
      bytes: resolved.maxBodyBytes,
      title: "Request body too large",
      remedy: MAX_BODY_REMEDY,
    });
    if (!body.ok) return;
    const request = await incomingRequest(req, body.bytes);
    const result = replayer.answer(request, line);
    await send(req, res, request.method, result);
    onEvent({ kind: result.kind === "miss" ? "miss" : "replayed", message: result.message });
  };

  /** Answers one request; returns a promise only when it has to wait (a body to read, a response to prepare). */
  const answer = (req: IncomingMessage, res: ServerResponse): Promise<void> | undefined => {
    // Absolute-form targets first: a forward proxy's target names the host, and only intercepted ones pass.
    if (refuseNonOriginForm(req, res, "replay server", interception)) return undefined;
    if (!guard.admit(req, res, "cross-site")) return undefined;
    if (isReset(req)) {
      if (!guard.admit(req, res, "control")) return undefined;
      req.resume();
      replayer.reset();
      onEvent({ kind: "replayed", message: `${RESET_PATH}: every sequence starts over` });
      const body = JSON.stringify({ reset: true });
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
      res.end(body);
      return undefined;
    }
    const method = req.method ?? "GET";
    const url = req.url ?? "/";
    const line = bodyless(req) ? KeyMemo.line(method, url) : undefined;
    const seen = line === undefined ? undefined : replayer.answerSeen(line, method, url);
    if (!seen) return answerInFull(req, res, line);
    onEvent({ kind: "replayed", message: seen.message });
    return send(req, res, method, seen);
  };

  const failed = (res: ServerResponse, error: unknown) => {
    onEvent({ kind: "warning", message: `replay failed: ${(error as Error).message}` });
    if (!res.headersSent) res.writeHead(500).end();
    else res.destroy();
  };
  const server = createServer((req, res) => {
    try {
      answer(req, res)?.catch((error: unknown) => failed(res, error));
    } catch (error) {
      failed(res, error);
    }
  });
  refuseConnect(server, "replay server", interception);
  guardSockets(server);
  const running = await startServer(server, {
    what: "replay server",
    host: resolved.host,
    port: resolved.port,
    graceMs: 5000,
  });
  own = running.url;
  return Object.freeze({
    url: running.url,
    port: Number(new URL(running.url).port),
    host: resolved.host,
    reset: () => replayer.reset(),
    interactions: replayer.index.size,
    warnings: Object.freeze(warnings),
    interception,
    close: running.close,
  });
}
