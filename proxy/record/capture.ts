import type { IncomingHttpHeaders } from "node:http";

/**
 * A copy of a streamed body, kept for the cassette while the bytes flow on to their reader. It holds at
 * most `limit` bytes: past it, `push` answers false and the copy is dropped.
 */
export class BoundedCapture {
  private chunks: Buffer[] = [];
  private size = 0;
  private over = false;

  constructor(private readonly limit: number) {}

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

  /** Everything kept, as the chunks it came in (nothing copied). */
  parts(): readonly Buffer[] {
    return this.chunks;
  }
}

/** Body bytes as captured: one buffer, or the chunks as they streamed by (not joined: that is a copy). */
export type CapturedBody = Buffer | readonly Buffer[];

/**
 * One exchange as it crossed the proxy, before anything is decoded or redacted: the one shape of an
 * exchange from the socket to the cassette's writer (the journal's frames carry it, `journal.ts`).
 * On the proxy's thread the bodies may still be chunks (`CapturedBody`); read back from the journal,
 * they are single buffers. A notification the service sent to the proxy's notification path is one too,
 * with what became of its relay.
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
  /** True for a notification the service sent (the recorder relays it, and records it as one). */
  notification?: boolean;
  /** A notification's receiver, its answer's status, or why it could not be reached. */
  forwardedTo?: string;
  forwardStatus?: number;
  forwardError?: string;
}
