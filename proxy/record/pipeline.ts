import { SIGNATURE_HEADER, signingKeyOf, signNotification } from "../../core/notification-signature.js";
import { bodyBytes } from "../cassette/body.js";
import type { NotificationRecord, StoredHeaders, StoredRequest, StoredResponse } from "../cassette/format.js";
import type { DocumentWriter } from "../cassette/writer.js";
import type { ProxyEventSink } from "../events.js";
import { firstHeader, parseTarget, storedHeaders } from "../http/message.js";
import { type Redactor, redactRequest, redactResponse } from "../redaction/redact.js";
import { learnFromRuleset } from "../redaction/ruleset.js";
import { BodyEncoder, type ReadyBody, readyBody } from "./body-encoder.js";
import type { CapturedExchange } from "./capture.js";

/** A message as captured: all but its body in stored form (not yet redacted), and its body made ready. */
interface Captured<T extends StoredRequest | StoredResponse> {
  head: Omit<T, "body">;
  body: ReadyBody;
}

interface CapturedPair {
  request: Captured<StoredRequest>;
  response: Captured<StoredResponse>;
}

/** An exchange's request and response, their bodies made ready (decompressed when they must be). */
async function capturedPair(x: CapturedExchange): Promise<CapturedPair> {
  const target = parseTarget(x.url) ?? { path: "/", query: undefined };
  const request: Omit<StoredRequest, "body"> = {
    method: x.method.toUpperCase(),
    path: target.path,
    headers: storedHeaders(x.requestHeaders),
  };
  if (target.query) request.query = target.query;
  const response = { status: x.status, headers: storedHeaders(x.responseHeaders) };
  const [requestBody, responseBody] = await Promise.all([
    readyBody(x.requestBody, request.headers),
    readyBody(x.responseBody, response.headers),
  ]);
  return { request: { head: request, body: requestBody }, response: { head: response, body: responseBody } };
}

/** Where the pipeline's documents go: the cassette's writer, or (recovery) a filter in front of it. */
export type InteractionSink = Pick<DocumentWriter, "append">;

/**
 * Turns captured exchanges into cassette documents, one after the other (so the file keeps the order in
 * which exchanges finished), off the clients' path: decompress, scan with the ruleset, redact (each message's head, then its
 * body, encoded by the `BodyEncoder`), serialise, queue for the writer.
 */
export class RecordingPipeline {
  private readonly encoder: BodyEncoder;
  private readonly queue: { exchange: CapturedExchange; id: number | undefined }[] = [];
  private running = false;
  private waiters: (() => void)[] = [];

  constructor(
    private readonly writer: InteractionSink,
    private readonly redactor: Redactor,
    extraKeys: readonly string[],
    private readonly onEvent: ProxyEventSink,
  ) {
    this.encoder = new BodyEncoder(redactor);
    for (const key of extraKeys) redactor.secrets.redact(key, "signatureKey");
  }

  /**
   * Queues an exchange (or a relayed notification) for the cassette. Exchanges are written in the order
   * they are queued, each once its bodies are ready and the ruleset has scanned it (`redaction/ruleset.ts`). `id` is the interaction id
   * to give it (default: the writer's next).
   */
  enqueue(exchange: CapturedExchange, id?: number): void {
    this.queue.push({ exchange, id });
    if (!this.running) this.run();
  }

  /** Resolves once everything queued has been handed to the writer. */
  idle(): Promise<void> {
    if (!this.running && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Takes the next queued item through: bodies made ready, the ruleset's scan, then `record`. */
  private run(): void {
    const queued = this.queue.shift();
    if (queued === undefined) {
      this.running = false;
      for (const resolve of this.waiters.splice(0)) resolve();
      return;
    }
    this.running = true;
    const { exchange: x, id } = queued;
    Promise.resolve()
      .then(() => capturedPair(x))
      .then(async (ready) => {
        await learnFromRuleset(
          [
            { line: `${x.method} ${x.url}`, headers: ready.request.head.headers, body: ready.request.body },
            { line: `HTTP ${x.status}`, headers: ready.response.head.headers, body: ready.response.body },
          ],
          this.redactor,
        );
        this.record(x, ready, id);
      })
      .catch((error: unknown) =>
        this.onEvent({
          kind: "write-error",
          message: `could not record ${x.method} ${x.url}: ${(error as Error).message}`,
        }),
      )
      .finally(() => this.run());
  }

  /** What the cassette says of a notification's signature, and the known key that signed it (if any). */
  private notificationRecord(x: CapturedExchange): {
    record: NotificationRecord;
    key: string | undefined;
  } {
    const header = firstHeader(x.requestHeaders, SIGNATURE_HEADER);
    const keys = [...this.redactor.secrets.signingKeys().keys()];
    const key = header === undefined ? undefined : signingKeyOf(x.requestBody, header, keys);
    const signature: NotificationRecord["signature"] =
      header === undefined
        ? { header: null, verified: null, note: "unsigned notification" }
        : keys.length === 0
          ? {
              header: SIGNATURE_HEADER,
              verified: null,
              note: "no signing key known: fetch GET /v5/partners/me through the recorder first, or pass signatureKeys",
            }
          : {
              header: SIGNATURE_HEADER,
              verified: key !== undefined,
              note: key
                ? "verified; re-signed with the placeholder of its signing key"
                : "matches none of the known signing keys",
            };
    // Undefined fields are not written (the emitter skips them).
    const { forwardedTo, forwardStatus, forwardError } = x;
    return { record: { signature, forwardedTo, forwardStatus, forwardError }, key };
  }

  /**
   * Writes one exchange. Everything is redacted in the order it is written, request (head, then body)
   * before response, so that a secret met anywhere earlier is scrubbed from everything after it.
   */
  private record(exchange: CapturedExchange, x: CapturedPair, given: number | undefined) {
    const recordedAt = exchange.startedAt.toISOString();
    if (exchange.notification) {
      this.recordNotification(exchange, x, recordedAt, given);
      return;
    }
    const encode = (body: ReadyBody, headers: StoredHeaders) => this.encoder.encode(body, headers);
    const request = this.redacted(x.request, redactRequest, encode);
    const response = this.redacted(x.response, redactResponse, encode);
    const id = this.writer.append({ recordedAt, request, response }, given);
    this.reported("recorded", id, request, response);
  }

  /** Writes a relayed notification: its body stored (never by a fast path), re-signed when verified. */
  private recordNotification(
    notification: CapturedExchange,
    x: CapturedPair,
    recordedAt: string,
    given: number | undefined,
  ) {
    const verdict = this.notificationRecord(notification);
    const store = (body: ReadyBody, headers: StoredHeaders) => this.encoder.store(body, headers);
    const request = this.redacted(x.request, redactRequest, store);
    const response = this.redacted(x.response, redactResponse, store);
    if (verdict.key !== undefined) {
      const placeholderKey = this.redactor.secrets.redact(verdict.key, "signatureKey");
      request.headers[SIGNATURE_HEADER] = signNotification(bodyBytes(request.body), placeholderKey);
    }
    const id = this.writer.append({ recordedAt, request, response, notification: verdict.record }, given);
    this.reported("notification", id, request, response);
  }

  /**
   * A message for the cassette: its head redacted, then its body by `encode` (the encoder's `encode`, or
   * its `store`, never by a fast path: see `BodyEncoder`).
   */
  private redacted<T extends StoredRequest | StoredResponse, B>(
    message: Captured<T>,
    redactHead: (head: T, r: Redactor) => T,
    encode: (body: ReadyBody, headers: StoredHeaders) => B | undefined,
  ): Omit<T, "body"> & { body?: B } {
    const head: Omit<T, "body"> = redactHead(message.head as T, this.redactor);
    const body = encode(message.body, message.head.headers);
    return body === undefined ? head : { ...head, body };
  }

  private reported(
    kind: "recorded" | "notification",
    id: number,
    request: Pick<StoredRequest, "method" | "path">,
    response: Pick<StoredResponse, "status">,
  ): void {
    this.onEvent({ kind, message: `${kind} #${id}: ${request.method} ${request.path} → ${response.status}` });
  }
}
