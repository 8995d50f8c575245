import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import { request as httpsRequest } from "node:https";
import type { AssopayError } from "../../core/errors.js";
import { readBodyOrRefuse, tooLargeDetail } from "../../core/http/body.js";
import { endToEndHeaders } from "../../core/http/headers.js";
import { createLocalGuard, guardSockets } from "../../core/http/local-guard.js";
import { type Problem, problem, sendProblem } from "../../core/http/problem.js";
import { type RunningServer, startServer } from "../../core/http/server.js";
import { bodyBytes } from "../cassette/body.js";
import type { StoredRequest } from "../cassette/format.js";
import { type Interception, prepareInterception } from "../forward/interception.js";
import { refuseConnect, refuseNonOriginForm } from "../http/guard.js";
import { MAX_BODY_REMEDY } from "../options.js";
import { cachedResponder } from "../replay/held.js";
import { Replayer } from "../replay/replayer.js";
import { incomingRequest } from "../replay/serve.js";
import { BoundedCapture, type CapturedExchange } from "./capture.js";
import { createForwarder, type ForwardOutcome } from "./forwarder.js";
import { Journal } from "./journal.js";
import { type RecorderOptions, type ResolvedRecorderOptions, resolveRecorderOptions } from "./options.js";
import { planRecording } from "./plan.js";
import { RecordingWorker } from "./worker-host.js";

/** Whether a request target is the notification path or below it. */
export function isNotificationPath(url: string | undefined, path: string): boolean {
  if (!url) return false;
  const pathname = url.split("?")[0] ?? "";
  return pathname === path || pathname.startsWith(`${path}/`);
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

function send(
  target: URL,
  method: string,
  headers: Record<string, string | string[]>,
  body: Buffer,
  limit: number,
  timeoutMs: number,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const call = (target.protocol === "https:" ? httpsRequest : httpRequest)(
      target,
      { method, headers: { ...headers, "content-length": String(body.length) } },
      (response) => {
        const body = new BoundedCapture(limit);
        response.on("data", (chunk: Buffer) => {
          if (!body.push(chunk))
            response.destroy(new Error(tooLargeDetail("response", limit, undefined, MAX_BODY_REMEDY)));
        });
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 502,
            headers: response.headers,
            body: Buffer.concat(body.parts()),
          }),
        );
        response.on("error", reject);
      },
    );
    call.setTimeout(timeoutMs, () => call.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    call.on("error", reject);
    call.end(body);
  });
}

/**
 * Takes a notification the service sent to the proxy, forwards it to the integrator's receiver (when one
 * is configured) and gives the receiver's answer back, so that the service retries exactly when the
 * receiver failed. Without a receiver the proxy answers 204. What is to be recorded goes to `record` before
 * the answer is sent (durability, as for exchanges); when `record` answers false (the journal cannot be
 * written), the connection is cut instead of answered.
 */
export async function relayNotification(
  options: Pick<
    ResolvedRecorderOptions,
    "notificationPath" | "notifyForward" | "maxBodyBytes" | "upstreamTimeoutMs" | "onEvent"
  >,
  req: IncomingMessage,
  res: ServerResponse,
  record: (notification: CapturedExchange) => boolean,
): Promise<void> {
  const startedAt = new Date();
  const body = await readBodyOrRefuse(req, res, {
    bytes: options.maxBodyBytes,
    title: "Notification body too large",
    remedy: MAX_BODY_REMEDY,
  });
  if (!body.ok) {
    options.onEvent({ kind: "refused", message: `notification refused: ${body.detail}` });
    return;
  }
  const recorded = (notification: CapturedExchange, answer: () => void) => {
    if (record(notification)) answer();
    else res.destroy();
  };
  const method = req.method ?? "POST";
  const base = {
    startedAt,
    method,
    url: req.url ?? options.notificationPath,
    requestHeaders: req.headers,
    requestBody: body.bytes,
    notification: true,
  };
  const target = options.notifyForward;
  if (!target) {
    recorded({ ...base, status: 204, responseHeaders: {}, responseBody: Buffer.alloc(0) }, () =>
      res.writeHead(204).end(),
    );
    return;
  }
  const suffix = (req.url ?? "").slice(options.notificationPath.length);
  const forwardUrl = new URL(`${target.pathname.replace(/\/$/, "")}${suffix}`, target);
  const shown = `${forwardUrl.origin}${forwardUrl.pathname}`;
  let answer: Answer;
  try {
    answer = await send(
      forwardUrl,
      method,
      endToEndHeaders(req.headers),
      body.bytes,
      options.maxBodyBytes,
      options.upstreamTimeoutMs,
    );
  } catch (error) {
    const detail = `the notification receiver ${shown} failed: ${(error as Error).message}`;
    const failure = problem("notification-forward-failed", 502, "Notification receiver failed", detail);
    options.onEvent({ kind: "upstream-error", message: detail });
    recorded(
      {
        ...base,
        status: 502,
        responseHeaders: { "content-type": "application/problem+json" },
        responseBody: Buffer.from(JSON.stringify(failure)),
        forwardedTo: shown,
        forwardError: (error as Error).message,
      },
      () => sendProblem(res, failure),
    );
    return;
  }
  const headers = endToEndHeaders(answer.headers);
  recorded(
    {
      ...base,
      status: answer.status,
      responseHeaders: answer.headers,
      responseBody: answer.body,
      forwardedTo: shown,
      forwardStatus: answer.status,
    },
    () => {
      res.writeHead(answer.status, { ...headers, "content-length": answer.body.length });
      res.end(answer.body);
    },
  );
}

/** A secret placeholder as cassettes hold them, also percent-encoded (`%3Csecret%3A`) in a URL. */
const PLACEHOLDER = /<secret:|%3Csecret%3A/i;

/**
 * Whether a request carries a secret placeholder anywhere (path, query, headers, body): a value the
 * client can only have got from a cassette, which the service would refuse (and whose 401 would then be
 * recorded). Placeholders are ASCII, so a body is searched as bytes, whatever its encoding.
 */
export function carriesPlaceholder(request: StoredRequest): boolean {
  if (PLACEHOLDER.test(request.path)) return true;
  for (const map of [request.query ?? {}, request.headers]) {
    for (const value of Object.values(map)) {
      for (const v of Array.isArray(value) ? value : [value]) if (PLACEHOLDER.test(v)) return true;
    }
  }
  const body = request.body;
  if (!body) return false;
  return PLACEHOLDER.test(bodyBytes(body).toString("latin1"));
}

/** The answer to a request carrying a placeholder that the cassette cannot answer: never forwarded. */
export function placeholderRefusal(shown: string): Problem {
  return problem(
    "placeholder-not-forwarded",
    501,
    "A secret placeholder cannot go upstream",
    `${shown} carries a secret placeholder (<secret:…>): it came from the cassette, which replaced the real secret, and the service would refuse it. The cassette holds no answer to this request, and it is not forwarded.`,
    {
      request: shown,
      hint: "send the real secret (a fresh token from the service) to record this request, or record the cassette again with --mode all",
    },
  );
}

/** Counts pieces of work under way, so that a server can wait for them before it stops. */

export class InFlight {
  private count = 0;
  private waiters: (() => void)[] = [];

  start(): void {
    this.count++;
  }

  end(): void {
    this.count--;
    if (this.count === 0) for (const resolve of this.waiters.splice(0)) resolve();
  }

  /** Resolves once nothing is under way. */
  idle(): Promise<void> {
    return this.count === 0 ? Promise.resolve() : new Promise((resolve) => this.waiters.push(resolve));
  }
}

/** A running recorder. */
export interface RunningRecorder {
  /** Its base URL, `http://127.0.0.1:PORT`: point the client there instead of the upstream. */
  readonly url: string;
  /** The URL to register as a notification URL with the service. */
  readonly notificationUrl: string;
  /** The cassette's absolute path. */
  readonly cassette: string;
  /** `recording`, or `replaying` in mode `once` when the cassette already existed. */
  readonly state: "recording" | "replaying";
  /** With `intercept`: the hosts it also answers for as a forward proxy, and the CA file to trust. */
  readonly interception: Pick<Interception, "hosts" | "caCertFile"> | undefined;
  /**
   * Resolves if recording stops by itself: the journal cannot be written (a full disk). New requests then
   * get 503 and are not forwarded; close the recorder. Never resolves otherwise.
   *
   * @example
   * const recorder = await startRecorder({ upstream, cassette: "session.yaml" });
   * void recorder.stopped.then(async (error) => {
   *   console.error(`${error.message}\nhint: ${error.hint}`);
   *   await recorder.close();
   * });
   */
  readonly stopped: Promise<AssopayError>;
  /** Stops accepting, lets exchanges in progress finish, writes what is left and releases the cassette. */
  close(): Promise<{ recorded: number }>;
}

const ONCE_HINT =
  "mode once: the cassette exists, so nothing new is recorded; use --mode new to add unseen requests";

/**
 * Starts a recording reverse proxy: every request is forwarded to the one upstream and every complete
 * exchange is appended to the cassette, secrets redacted. Absolute-form targets and CONNECT are refused.
 *
 * @example
 * const recorder = await startRecorder({ upstream: "https://api.helloasso-sandbox.com", cassette: "rec.yaml" });
 * await fetch(`${recorder.url}/v5/partners/me`, { headers: { authorization: `Bearer ${token}` } });
 * await recorder.close();
 */
export async function startRecorder(options: RecorderOptions): Promise<RunningRecorder> {
  const o: ResolvedRecorderOptions = resolveRecorderOptions(options);
  const interception = await prepareInterception(o.intercept, o.caDir);
  const plan = await planRecording(o);
  let recording: RecordingWorker | undefined;
  const journal = plan.file ? Journal.open(plan.file.path) : undefined;
  try {
    recording = plan.file
      ? await RecordingWorker.start(
          {
            fd: plan.file.fd,
            nextId: plan.nextId,
            secretSalt: o.secretSalt,
            redactPii: o.redactPii,
            signatureKeys: o.signatureKeys,
            reportExchanges: o.reportExchanges,
          },
          o.onEvent,
          journal as Journal,
        )
      : undefined;
  } catch (error) {
    journal?.close(true);
    await plan.file?.close();
    throw error;
  }
  // What the proxy's thread reports waits for what the worker learns from the exchanges before it.
  const onEvent = recording ? recording.afterLearning(o.onEvent) : o.onEvent;
  const relayOptions = { ...o, onEvent };
  // The bound on the cassette's size watches the file being written (in mode all, the new one).
  const forwarder = createForwarder({
    ...o,
    onEvent,
    cassette: plan.file?.path,
    pending: () => recording?.queue.pending ?? 0,
  });
  // Modes `once` and `new` serve the existing cassette as replay does: in `new`, each recording once,
  // and a miss is forwarded (and recorded); in `once`, a miss gets replay's own answer.
  const replayer = plan.existing
    ? new Replayer([plan.existing], {
        at: undefined,
        view: undefined,
        secretSalt: o.secretSalt,
        exhausted: recording ? "miss" : "repeat-last",
        matchRules: o.matchRules,
      })
    : undefined;
  const respond = cachedResponder();
  const inFlight = new InFlight();

  /** Serves the request from the existing cassette when it can; otherwise resolves to its body, to forward. */
  const fromCassette = async (req: IncomingMessage, res: ServerResponse): Promise<Buffer | undefined> => {
    const body = await readBodyOrRefuse(req, res, {
      bytes: o.maxBodyBytes,
      title: "Request body too large",
      remedy: MAX_BODY_REMEDY,
    });
    if (!body.ok) return undefined;
    if (!replayer && o.mode !== "new") return body.bytes;
    const request = await incomingRequest(req, body.bytes);
    const answer = !replayer ? undefined : recording ? replayer.served(request) : replayer.answer(request);
    if (!answer) {
      // Mode new: a placeholder came from the cassette; forwarded, it would only record the service's 401.
      if (!carriesPlaceholder(request)) return body.bytes;
      const refusal = placeholderRefusal(`${request.method} ${request.path}`);
      sendProblem(res, refusal);
      onEvent({ kind: "miss", message: refusal.detail });
      return undefined;
    }
    await respond(res, request.method, answer.response, answer.headers);
    if (answer.kind === "miss") onEvent({ kind: "miss", message: `${answer.message} (${ONCE_HINT})` });
    return undefined;
  };

  const recorded = (outcome: ForwardOutcome): boolean => {
    inFlight.end();
    return !outcome.ok || !recording || recording.enqueue(outcome.exchange);
  };
  const notified = (notification: CapturedExchange): boolean => !recording || recording.enqueue(notification);

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (isNotificationPath(req.url, o.notificationPath)) {
      await relayNotification(relayOptions, req, res, notified);
      return;
    }
    const buffered = await fromCassette(req, res);
    if (buffered === undefined) return;
    inFlight.start();
    forwarder.forward(req, res, recorded, buffered);
  };

  const serve = (req: IncomingMessage, res: ServerResponse) => {
    // The common path, kept free of promises: stream to the upstream, record when done.
    if (!replayer && o.mode !== "new" && !isNotificationPath(req.url, o.notificationPath)) {
      inFlight.start();
      forwarder.forward(req, res, recorded);
      return;
    }
    inFlight.start();
    handle(req, res)
      .catch((error: unknown) => {
        onEvent({
          kind: "warning",
          message: `${req.method} ${req.url} failed: ${(error as Error).message}`,
        });
        if (!res.headersSent) res.writeHead(500).end();
        else res.destroy();
      })
      .finally(() => inFlight.end());
  };

  // A page of another site must not get a request recorded into the cassette, nor reach the upstream.
  const guard = createLocalGuard({
    what: "recording proxy",
    bindHost: o.host,
    allowHosts: o.allowHosts,
    servedHosts: interception?.hosts,
  });
  const server = createServer((req, res) => {
    // Absolute-form targets first: a forward proxy's target names the host, and only intercepted ones pass.
    if (refuseNonOriginForm(req, res, "recording proxy", interception)) return;
    if (!guard.admit(req, res, "cross-site")) return;
    if (recording?.stopped) {
      req.resume();
      const { message, hint } = recording.stopped;
      sendProblem(res, problem("recording-stopped", 503, "Recording stopped", message, { hint }));
      return;
    }
    if (recording?.congested) {
      inFlight.start();
      recording.whenDrained(() => {
        inFlight.end();
        serve(req, res);
      });
      return;
    }
    serve(req, res);
  });
  server.keepAliveTimeout = 5000;
  refuseConnect(server, "recording proxy", interception);
  guardSockets(server);
  let running: RunningServer;
  try {
    running = await startServer(server, {
      what: "recording proxy",
      host: o.host,
      port: o.port,
      graceMs: 10_000,
    });
  } catch (error) {
    await recording?.close();
    await plan.file?.close();
    forwarder.close();
    throw error;
  }

  const { url } = running;
  let closing: Promise<{ recorded: number }> | undefined;
  const close = async () => {
    await running.close();
    await inFlight.idle();
    const recorded = (await recording?.close()) ?? 0;
    await plan.file?.close();
    forwarder.close();
    return { recorded };
  };
  return Object.freeze({
    url,
    notificationUrl: `${url}${o.notificationPath}`,
    cassette: o.cassette,
    state: plan.file ? ("recording" as const) : ("replaying" as const),
    interception,
    stopped: new Promise<AssopayError>((resolve) => recording?.onStopped(resolve)),
    close: () => {
      closing ??= close();
      return closing;
    },
  });
}
