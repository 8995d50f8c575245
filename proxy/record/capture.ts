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

  get overLimit(): boolean {
    return this.over;
  }

  /** Everything kept, in one buffer. */
  bytes(): Buffer {
    if (this.chunks.length === 1) return this.chunks[0] as Buffer;
    return Buffer.concat(this.chunks, this.size);
  }
}

/** One exchange as it crossed the proxy, before anything is decoded or redacted. */
export interface CapturedExchange {
  startedAt: Date;
  method: string;
  /** The request target as the client sent it (`/path?query`). */
  url: string;
  requestHeaders: IncomingHttpHeaders;
  requestBody: Buffer;
  status: number;
  responseHeaders: IncomingHttpHeaders;
  responseBody: Buffer;
}

/** A notification the service sent to the proxy's notification path, with what became of it. */
export interface CapturedNotification extends CapturedExchange {
  forwardedTo?: string;
  forwardStatus?: number;
  forwardError?: string;
}
