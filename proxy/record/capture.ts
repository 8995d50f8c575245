import type { IncomingHttpHeaders } from "node:http";

/**
 * A copy of a streamed body, kept for the cassette while the bytes flow on to their reader. It holds at
 * most `limit` bytes: past it, `push` answers false and the copy is dropped.
 */
export class BoundedCapture {
  private chunks: Buffer[] = [];
  private size = 0;
  private over = false;
  private readonly limit: number;

  constructor(limit: number) {
    this.limit = limit;
  }

  /** Keeps a chunk; false once the body is over the limit. */
  push(chunk: Buffer): boolean {
    if (this.over) return false;
    this.size += chunk.length;
    if (this.size > this.limit) {
      this.over = true;
      this.chunks = [];
      return false;
    }
    this.chunks.push(chunk);
    return true;
  }

  /** Bytes kept so far. */
  get length(): number {
    return this.size;
  }

  get overLimit(): boolean {
    return this.over;
  }

  /** Everything kept, as the chunks it came in (nothing copied). */
  parts(): readonly Buffer[] {
    return this.chunks;
  }
}

/** Body bytes as captured: one buffer, or the chunks as they streamed by (not joined: that is a copy). */
export type CapturedBody = Buffer | readonly Buffer[];

/** The length of a captured body. */
export function bodyLength(body: CapturedBody): number {
  if (Buffer.isBuffer(body)) return body.length;
  let length = 0;
  for (const chunk of body) length += chunk.length;
  return length;
}

/**
 * One exchange as it crossed the proxy, before anything is decoded or redacted. On the proxy's thread the
 * bodies may still be chunks (`CapturedBody`); the recording worker gets them as single buffers.
 */
export interface CapturedExchange<Body extends CapturedBody = Buffer> {
  startedAt: Date;
  method: string;
  /** The request target as the client sent it (`/path?query`). */
  url: string;
  requestHeaders: IncomingHttpHeaders;
  requestBody: Body;
  status: number;
  responseHeaders: IncomingHttpHeaders;
  responseBody: Body;
}

/** A notification the service sent to the proxy's notification path, with what became of it. */
export interface CapturedNotification<Body extends CapturedBody = Buffer> extends CapturedExchange<Body> {
  forwardedTo?: string;
  forwardStatus?: number;
  forwardError?: string;
}

/** What the recorder records: an exchange it forwarded, or a notification it relayed. */
export type Recordable<Body extends CapturedBody = CapturedBody> =
  | { kind: "exchange"; exchange: CapturedExchange<Body> }
  | { kind: "notification"; notification: CapturedNotification<Body> };

/** The exchange a recordable carries (a relayed notification is one too). */
export function capturedOf<Body extends CapturedBody>(item: Recordable<Body>): CapturedNotification<Body> {
  switch (item.kind) {
    case "exchange":
      return item.exchange;
    case "notification":
      return item.notification;
  }
}
