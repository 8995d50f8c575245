import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { Contract } from "../../contracts/index.js";
import { readBody, tooLargeDetail } from "../../core/http/body.js";
import { endToEndHeaders } from "../../core/http/headers.js";
import { createLocalGuard } from "../../core/http/local-guard.js";
import { startServer } from "../../core/http/server.js";
import { INTERCEPTED_HEADER } from "../../proxy/intercept/hosts.js";
import type { ExchangeResponse, GateAnswer, RecordedExchange } from "../exchange.js";
import { replaceParam } from "../raw-query.js";
import type { Scenario } from "../scenarios.js";
import { createTokenMint } from "../token-mint.js";
import { type AccessGuard, createExpiringAccess, openAccess } from "./access.js";
import { sendGateAnswer, sendJson } from "./answers.js";
import { type Cursor, type CursorTable, createCursorTable } from "./cursors.js";
import { createFaultSchedule, type FaultSchedule } from "./faults.js";
import { decodedBody, forward, type UpstreamAnswer } from "./forward.js";
import { recordMalformed } from "./malformed.js";
import { cutPage } from "./pages.js";
import { requestFacts } from "./request-facts.js";
import { createTrafficLog, type TrafficLog } from "./traffic-log.js";

/** How to start the scenario layer (resolved by the gate; not a public surface). */
export interface LayerOptions {
  /** Base URL of the sandbox or replay server behind the layer. */
  readonly upstream: string;
  readonly scenario: Scenario;
  readonly contract: Contract;
  /** Requests served at most; the next one gets 503 and `onBudgetSpent` is called once. */
  readonly maxRequests: number;
  /** Seed of the tokens the layer mints (deterministic reports). */
  readonly seed: string;
  readonly upstreamTimeoutMs: number;
  readonly onBudgetSpent: () => void;
  /** Rewrites a token request's body on its way upstream (default: as sent). */
  readonly tokenBody?: (body: Buffer) => Buffer;
  /**
   * Names a request's `Host` may use besides the loopback ones: `--allow-host` names and the hosts the
   * command's requests are intercepted for (`--intercept`).
   */
  readonly allowHosts?: readonly string[];
}

/** A running scenario layer: a transforming reverse proxy that records every request. */
export interface RunningLayer {
  readonly url: string;
  exchanges(): readonly RecordedExchange[];
  /** Whether the command asked for more than the request budget. */
  readonly budgetSpent: boolean;
  close(): Promise<void>;
}

interface LayerContext {
  readonly options: LayerOptions;
  readonly traffic: TrafficLog;
  readonly cursors: CursorTable;
  readonly access: AccessGuard;
  readonly faults: FaultSchedule;
  budgetReported: boolean;
}

/** The largest request body the layer reads and forwards; a larger one gets 413 and is not forwarded. */
export const LAYER_MAX_BODY_BYTES = 1_048_576;

function reply(res: ServerResponse, answer: UpstreamAnswer, body?: Buffer): void {
  const headers = endToEndHeaders(answer.headers);
  const bytes = body ?? answer.body;
  if (body) delete headers["content-encoding"];
  res.writeHead(answer.status, { ...headers, "content-length": String(bytes.length) });
  res.end(bytes);
}

function parseJson(bytes: Buffer | undefined): unknown {
  if (bytes === undefined) return undefined;
  try {
    return JSON.parse(bytes.toString("utf8")) as unknown;
  } catch {
    return undefined;
  }
}

async function serve(ctx: LayerContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { options } = ctx;
  const method = (req.method ?? "GET").toUpperCase();
  const rawUrl = req.url ?? "/";
  // The intercept preload's note of the origin meant: for the layer only, never recorded nor forwarded.
  delete req.headers[INTERCEPTED_HEADER];
  const { match, route, listingKey, path, query, tokenParam, token } = requestFacts(
    options.contract,
    method,
    rawUrl,
  );
  const authorization = String(req.headers.authorization ?? "");
  const seq = ctx.traffic.begin({
    method,
    rawUrl,
    headers: { ...req.headers },
    route,
    listingKey,
    token,
    authorization,
  });
  const body = await readBody(req, LAYER_MAX_BODY_BYTES);
  const finish = (
    at: number,
    response: Pick<ExchangeResponse, "status" | "madeBy"> & Partial<ExchangeResponse>,
  ) => {
    if (seq !== undefined)
      ctx.traffic.finish(seq, { reason: undefined, page: undefined, retryAfter: undefined, at, ...response });
  };
  // Stamped before the answer is written: a client cannot have read it earlier.
  const gateAnswer = (reason: GateAnswer, detail?: string) => {
    const at = Date.now();
    const retryAfter = reason === "rate-limited" ? detail : undefined;
    finish(at, { status: sendGateAnswer(res, reason, detail), madeBy: "gate", reason, retryAfter });
  };
  if (seq === undefined) {
    sendGateAnswer(res, "request-budget", `the request budget of ${options.maxRequests} is spent`);
    if (!ctx.budgetReported) {
      ctx.budgetReported = true;
      options.onBudgetSpent();
    }
    return;
  }
  if (!body.ok) {
    gateAnswer("body-too-large", tooLargeDetail("request", LAYER_MAX_BODY_BYTES, body.length));
    return;
  }
  if (route && route.id !== "token" && ctx.access.refuses(authorization)) {
    gateAnswer("expired-access-token");
    return;
  }

  let cursor: Cursor | undefined;
  let target = rawUrl;
  if (listingKey !== undefined) {
    if (token) {
      cursor = ctx.cursors.find(token.decoded);
      if (!cursor || cursor.listingKey !== listingKey) {
        const why = cursor ? "it belongs to another listing" : "it is not a token this service issued";
        gateAnswer("unknown-token", why);
        return;
      }
      if (options.scenario.expireOnce && ctx.access.expireOnce(authorization)) {
        gateAnswer("expired-access-token");
        return;
      }
    } else {
      cursor = { listingKey, upstreamToken: undefined, skip: 0, pageIndex: 1 };
    }
    if (tokenParam) {
      const rewritten = replaceParam(query, tokenParam, cursor.upstreamToken);
      target = rewritten === "" ? path : `${path}?${rewritten}`;
    }
  }
  if (route && route.id !== "token") {
    const refusal = ctx.faults.refusal(Date.now(), token !== undefined && listingKey !== undefined);
    if (refusal) {
      gateAnswer(refusal.kind, refusal.kind === "rate-limited" ? refusal.retryAfter : undefined);
      return;
    }
  }

  const headers = endToEndHeaders(req.headers);
  if (authorization !== "") headers.authorization = ctx.access.upstreamAuthorization(authorization);
  let answer: UpstreamAnswer;
  try {
    const sent = route?.id === "token" && options.tokenBody ? options.tokenBody(body.bytes) : body.bytes;
    answer = await forward(options.upstream, method, target, headers, sent, options.upstreamTimeoutMs);
  } catch (error) {
    const detail = `the upstream ${options.upstream} failed: ${(error as Error).message}`;
    gateAnswer("upstream-failed", detail);
    return;
  }

  if (route?.id === "token" && answer.status === 200) {
    const parsed = parseJson(await decodedBody(answer));
    const rewritten = ctx.access.issued(parsed);
    if (rewritten !== parsed) {
      finish(Date.now(), { status: answer.status, madeBy: "upstream" });
      reply(res, answer, Buffer.from(JSON.stringify(rewritten), "utf8"));
      return;
    }
  }
  if (cursor && match?.route.pagination && answer.status >= 200 && answer.status < 300) {
    const cut = cutPage({
      body: parseJson(await decodedBody(answer)),
      resultArray: match.route.pagination.resultArray,
      cursor,
      sentToken: token?.decoded,
      cut: options.scenario.pages,
      finalToken: options.scenario.finalToken,
      issue: (next) => ctx.cursors.issue(next),
    });
    if (cut) {
      ctx.faults.served();
      finish(Date.now(), { status: answer.status, madeBy: "upstream", page: cut.page });
      reply(res, answer, Buffer.from(JSON.stringify(cut.body), "utf8"));
      return;
    }
  }
  const retryAfter = answer.headers["retry-after"];
  finish(Date.now(), {
    status: answer.status,
    madeBy: "upstream",
    retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
  });
  reply(res, answer);
}

/**
 * Starts the scenario layer in front of an upstream (sandbox or replay): it records every request as
 * received, re-cuts listing pages and re-issues continuation tokens the scenario's way (mapping them
 * back to the upstream's own), and answers the scenario's 401 once.
 *
 * @example
 * const layer = await startScenarioLayer({ upstream: sandbox.url, scenario, contract, maxRequests: 500,
 *   seed: "uniform", upstreamTimeoutMs: 10_000, onBudgetSpent: () => command.stop("request-budget") });
 */
export async function startScenarioLayer(options: LayerOptions): Promise<RunningLayer> {
  const ctx: LayerContext = {
    options,
    traffic: createTrafficLog(options.maxRequests),
    cursors: createCursorTable(
      createTokenMint(options.scenario.tokens, `${options.seed}:${options.scenario.name}`),
    ),
    access: options.scenario.expireOnce ? createExpiringAccess(options.seed) : openAccess,
    faults: createFaultSchedule(options.scenario.faults),
    budgetReported: false,
  };
  // The command under test reaches the layer on 127.0.0.1 (or by a name allowed); no web page may.
  const guard = createLocalGuard({ what: "gate's scenario layer", allowHosts: options.allowHosts });
  const server = createServer((req, res) => {
    if (!guard.admit(req, res, "cross-site")) return;
    serve(ctx, req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { errors: [{ code: "GateFailed", message: String(error) }] });
      else res.destroy();
    });
  });
  server.on("clientError", (error: Error & { rawPacket?: Buffer }, socket: Socket) =>
    recordMalformed(options.contract, ctx.traffic, error, socket),
  );
  const running = await startServer(server, { what: "gate's scenario layer" });
  return {
    url: running.url,
    exchanges: () => ctx.traffic.exchanges(),
    get budgetSpent() {
      return ctx.traffic.exhausted;
    },
    close: running.close,
  };
}
