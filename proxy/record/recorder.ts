import {
  bodyBytes,
  classifyBody,
  isJsonCandidate,
  isJsonType,
  JSON_MAP_LIMIT,
  storeBody,
  storeBodyNow,
} from "../cassette/body.js";
import type {
  NotificationRecord,
  StoredBody,
  StoredHeaders,
  StoredRequest,
  StoredResponse,
} from "../cassette/format.js";
import { JsonToYaml } from "../cassette/json-yaml.js";
import { type RawText, rawLine } from "../cassette/raw-text.js";
import type { DocumentWriter } from "../cassette/writer.js";
import type { ProxyEventSink } from "../events.js";
import { firstHeader, parseTarget, storedHeaders } from "../http/message.js";
import { type Redactor, redactBody, redactRequest, redactResponse } from "../redaction/redact.js";
import type { CapturedExchange, CapturedNotification } from "./capture.js";
import { SIGNATURE_HEADER, signature, verifySignature } from "./notifications.js";

type Stored<T> = T | Promise<T>;

/** Finds whether a large body can be written as its raw bytes (see `RawText`). */
type RawCheck = (bytes: Buffer) => RawText | undefined;

/** A JSON body whose YAML the pipeline first tries to write straight from its text (see `JsonToYaml`). */
class JsonText {
  constructor(readonly wire: Buffer) {}
}

/** A message as captured: its body stored, or a `JsonText` still to be written. */
type Captured<T extends { body?: StoredBody }> = Omit<T, "body"> & { body?: StoredBody | JsonText };

/** Where `request.body.json` and `response.body.json` sit in a cassette document. */
const BODY_INDENT = 6;

/**
 * A body in stored form: at once, unless it must be decompressed first. A large textual body that needs
 * no redaction is kept as its raw bytes; with `fast`, a JSON body is kept as its text for `JsonToYaml`.
 */
function stored(
  wire: Buffer,
  headers: StoredHeaders,
  raw: RawCheck,
  fast: boolean,
): Stored<StoredBody | JsonText | undefined> {
  const type = firstHeader(headers, "content-type");
  const coding = firstHeader(headers, "content-encoding");
  if (wire.length > JSON_MAP_LIMIT && coding === undefined && isTextual(type)) {
    const text = raw(wire);
    if (text) return { text: text as unknown as string };
  }
  if (fast && isJsonCandidate(wire, type, coding)) return new JsonText(wire);
  const now = storeBodyNow(wire, type, coding);
  return now === "decode" ? storeBody(wire, type, coding) : now;
}

function isTextual(type: string | undefined): boolean {
  return type !== undefined && (isJsonType(type) || type.toLowerCase().startsWith("text/"));
}

function withBody<T extends object>(message: T, body: StoredBody | JsonText | undefined) {
  return body ? { ...message, body } : message;
}

function storedRequest(x: CapturedExchange, raw: RawCheck, fast: boolean): Stored<Captured<StoredRequest>> {
  const target = parseTarget(x.url) ?? { path: "/", query: undefined };
  const headers = storedHeaders(x.requestHeaders);
  const request: Captured<StoredRequest> = { method: x.method.toUpperCase(), path: target.path, headers };
  if (target.query) request.query = target.query;
  const body = stored(x.requestBody, headers, raw, fast);
  return body instanceof Promise ? body.then((b) => withBody(request, b)) : withBody(request, body);
}

function storedResponse(x: CapturedExchange, raw: RawCheck, fast: boolean): Stored<Captured<StoredResponse>> {
  const response: Captured<StoredResponse> = { status: x.status, headers: storedHeaders(x.responseHeaders) };
  const body = stored(x.responseBody, response.headers, raw, fast);
  return body instanceof Promise ? body.then((b) => withBody(response, b)) : withBody(response, body);
}

interface Queued {
  exchange: CapturedExchange;
  notification: CapturedNotification | undefined;
}

/**
 * Turns captured exchanges into cassette documents, one after the other (so the file keeps the order in
 * which exchanges finished), off the clients' path: decode, redact, serialise, queue for the writer.
 */
export class RecordingPipeline {
  private readonly writer: DocumentWriter;
  private readonly redactor: Redactor;
  private readonly onEvent: ProxyEventSink;
  private readonly queue: Queued[] = [];
  /** Whether values under a field name must be redacted: secrets, and personal data with `pii`. */
  private readonly sensitive = (key: string): boolean => {
    const kind = this.redactor.fields.kind(key);
    return kind === "secret" || (this.redactor.pii && kind !== "plain");
  };
  private readonly rawCheck: RawCheck = (bytes) =>
    rawLine(bytes, this.redactor.secrets.knownSecrets(), this.sensitive, this.redactor.pii);
  private readonly yaml = new JsonToYaml(this.sensitive);
  private running = false;
  private waiters: (() => void)[] = [];

  constructor(
    writer: DocumentWriter,
    redactor: Redactor,
    extraKeys: readonly string[],
    onEvent: ProxyEventSink,
  ) {
    this.writer = writer;
    this.redactor = redactor;
    this.onEvent = onEvent;
    for (const key of extraKeys) redactor.secrets.redact(key, "signatureKey");
  }

  /**
   * Queues an exchange (or a relayed notification) for the cassette. Exchanges are written in the order
   * they are queued; those that need no decompression are handled at once.
   */
  enqueue(exchange: CapturedExchange, notification?: CapturedNotification): void {
    this.queue.push({ exchange, notification });
    if (!this.running) this.run();
  }

  /** Resolves once everything queued has been handed to the writer. */
  idle(): Promise<void> {
    if (!this.running && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private run(): void {
    this.running = true;
    for (let item = this.queue.shift(); item; item = this.queue.shift()) {
      const source = item.notification ?? item.exchange;
      const isNotification = item.notification !== undefined;
      try {
        const request = storedRequest(source, this.rawCheck, !isNotification);
        const response = storedResponse(source, this.rawCheck, !isNotification);
        if (request instanceof Promise || response instanceof Promise) {
          const exchange = item.exchange;
          Promise.all([request, response])
            .then(([req, res]) => this.record(source, req, res, isNotification))
            .catch((error: unknown) => this.failed(exchange, error))
            .finally(() => this.run());
          return;
        }
        this.record(source, request, response, isNotification);
      } catch (error) {
        this.failed(item.exchange, error);
      }
    }
    this.running = false;
    for (const resolve of this.waiters.splice(0)) resolve();
  }

  /** A message redacted: all but its body by `redactHead` (headers first), then its body. */
  private redacted<T extends StoredRequest | StoredResponse>(
    raw: Captured<T>,
    redactHead: (message: T, r: Redactor) => T,
  ): T {
    const { body, ...head } = raw;
    const message = redactHead(head as T, this.redactor);
    const redactedBody = this.body(body, head.headers);
    if (redactedBody) message.body = redactedBody;
    return message;
  }

  /**
   * A body redacted. A `JsonText` is written straight to YAML when it is canonical JSON with nothing to
   * redact (secrets met so far included: the headers are redacted first); otherwise it goes the general
   * way, parsed and redacted.
   */
  private body(body: StoredBody | JsonText | undefined, headers: StoredHeaders): StoredBody | undefined {
    const type = firstHeader(headers, "content-type");
    if (!(body instanceof JsonText)) return redactBody(body, type, this.redactor);
    const yaml = this.yaml.transcode(body.wire, BODY_INDENT, this.redactor.secrets.knownSecrets());
    if (yaml) return { json: yaml };
    return redactBody(classifyBody(body.wire, type), type, this.redactor);
  }

  private failed(exchange: CapturedExchange, error: unknown): void {
    this.onEvent({
      kind: "write-error",
      message: `could not record ${exchange.method} ${exchange.url}: ${(error as Error).message}`,
    });
  }

  private notificationRecord(x: CapturedNotification): {
    record: NotificationRecord;
    key: string | undefined;
  } {
    const header = firstHeader(x.requestHeaders, SIGNATURE_HEADER);
    const forward = {
      ...(x.forwardedTo === undefined ? {} : { forwardedTo: x.forwardedTo }),
      ...(x.forwardStatus === undefined ? {} : { forwardStatus: x.forwardStatus }),
      ...(x.forwardError === undefined ? {} : { forwardError: x.forwardError }),
    };
    if (header === undefined) {
      return {
        record: { signature: { header: null, verified: null, note: "unsigned notification" }, ...forward },
        key: undefined,
      };
    }
    const keys = [...this.redactor.secrets.signingKeys().keys()];
    if (keys.length === 0) {
      const note =
        "no signing key known: fetch GET /v5/partners/me through the recorder first, or pass signatureKeys";
      return {
        record: { signature: { header: SIGNATURE_HEADER, verified: null, note }, ...forward },
        key: undefined,
      };
    }
    const key = verifySignature(x.requestBody, header, keys);
    const note = key
      ? "verified; re-signed with the placeholder of its signing key"
      : "matches none of the known signing keys";
    return {
      record: { signature: { header: SIGNATURE_HEADER, verified: key !== undefined, note }, ...forward },
      key,
    };
  }

  private record(
    x: CapturedExchange | CapturedNotification,
    rawRequest: Captured<StoredRequest>,
    rawResponse: Captured<StoredResponse>,
    isNotification: boolean,
  ): void {
    const verdict = isNotification ? this.notificationRecord(x as CapturedNotification) : undefined;
    const request = this.redacted(rawRequest, redactRequest);
    const response = this.redacted(rawResponse, redactResponse);
    if (verdict?.key !== undefined) {
      const placeholderKey = this.redactor.secrets.redact(verdict.key, "signatureKey");
      request.headers[SIGNATURE_HEADER] = signature(placeholderKey, bodyBytes(request.body));
    }
    const id = this.writer.append({
      recordedAt: x.startedAt.toISOString(),
      request,
      response,
      ...(verdict ? { notification: verdict.record } : {}),
    });
    const what = isNotification ? "notification" : "recorded";
    this.onEvent({
      kind: isNotification ? "notification" : "recorded",
      message: `${what} #${id}: ${request.method} ${request.path} → ${response.status}`,
    });
  }
}
