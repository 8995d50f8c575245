import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { collectGarbage } from "../../core/collect.js";
import { startServer } from "../../core/http/server.js";
import { loadCassette } from "../cassette/reader.js";
import { createCassetteValidator } from "../cassette/schema.js";
import type { ProxyEventSink } from "../events.js";
import { type Interception, prepareInterception } from "../forward/interception.js";
import { readBodyOrRefuse } from "../http/body.js";
import { refuseConnect, refuseNonOriginForm } from "../http/guard.js";
import { KeyMemo } from "./key-memo.js";
import {
  type ReplayOptions,
  type ResolvedReplayOptions,
  resolveReplayOptions,
  timelineView,
} from "./options.js";
import { cassetteWarnings, Replayer } from "./replayer.js";
import { cachedResponder, type Responder } from "./respond.js";
import { incomingRequest } from "./serve.js";

/** A running replay server. */
export interface RunningReplay {
  /** Its base URL, `http://127.0.0.1:PORT`. */
  readonly url: string;
  /** Interactions it can serve (notifications excluded). */
  readonly interactions: number;
  /** Warnings from loading the cassettes (skipped incomplete documents, salt mismatch). */
  readonly warnings: readonly string[];
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

interface Answering {
  replayer: Replayer;
  respond: Responder;
  maxBodyBytes: number;
  onEvent: ProxyEventSink;
  interception: Interception | undefined;
}

/** Answers one request; returns a promise only when it has to wait (a body to read, a response to prepare). */
function answer(a: Answering, req: IncomingMessage, res: ServerResponse): Promise<void> | undefined {
  if (refuseNonOriginForm(req, res, "replay server", a.interception)) return undefined;
  const method = req.method ?? "GET";
  const url = req.url ?? "/";
  const line = bodyless(req) ? KeyMemo.line(method, url) : undefined;
  const seen = line === undefined ? undefined : a.replayer.answerSeen(line, method, url);
  if (seen) {
    a.onEvent({ kind: "replayed", message: seen.message });
    return a.respond(res, method, seen.response, seen.headers);
  }
  return answerInFull(a, req, res, line);
}

async function answerInFull(
  a: Answering,
  req: IncomingMessage,
  res: ServerResponse,
  line: string | undefined,
): Promise<void> {
  const body = await readBodyOrRefuse(req, res, a.maxBodyBytes, "Request body too large");
  if (!body.ok) return;
  const request = await incomingRequest(req, body.bytes);
  const result = a.replayer.answer(request, line);
  await a.respond(res, request.method, result.response, result.headers);
  a.onEvent({ kind: result.kind === "miss" ? "miss" : "replayed", message: result.message });
}

/** Loads the cassettes and indexes them; nothing else of what was loaded is kept. */
async function loadReplayer(
  resolved: ResolvedReplayOptions,
): Promise<{ replayer: Replayer; warnings: string[] }> {
  const validator = createCassetteValidator();
  const cassettes = await Promise.all(resolved.cassettes.map((file) => loadCassette(file, validator)));
  const warnings = cassetteWarnings(cassettes, resolved.secretSalt);
  for (const message of warnings) resolved.onEvent({ kind: "warning", message });
  const replayer = new Replayer(cassettes, {
    at: resolved.at,
    view: await timelineView(resolved),
    secretSalt: resolved.secretSalt,
  });
  return { replayer, warnings };
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
  const { replayer, warnings } = await loadReplayer(resolved);
  const interception = await prepareInterception(resolved.intercept, resolved.caDir);
  // What was loaded and not indexed (the parsed documents, the files' text) is garbage now: reclaimed
  // once here, rather than carried in the old generation for as long as the server runs.
  collectGarbage();
  const answering: Answering = {
    replayer,
    respond: cachedResponder(),
    maxBodyBytes: resolved.maxBodyBytes,
    onEvent: resolved.onEvent,
    interception,
  };
  const failed = (res: ServerResponse, error: unknown) => {
    resolved.onEvent({ kind: "warning", message: `replay failed: ${(error as Error).message}` });
    if (!res.headersSent) res.writeHead(500).end();
    else res.destroy();
  };
  const server = createServer((req, res) => {
    try {
      answer(answering, req, res)?.catch((error: unknown) => failed(res, error));
    } catch (error) {
      failed(res, error);
    }
  });
  refuseConnect(server, "replay server", interception);
  const running = await startServer(server, {
    what: "replay server",
    host: resolved.host,
    port: resolved.port,
    graceMs: 5000,
  });
  return Object.freeze({
    url: running.url,
    interactions: replayer.index.size,
    warnings: Object.freeze(warnings),
    interception,
    close: running.close,
  });
}
