import { createHmac, timingSafeEqual } from "node:crypto";
import type { Direction } from "./data/sequence.js";

/**
 * Opaque continuation tokens. A token is base64 of 23 bytes: a fixed 3-byte prefix (so every token
 * starts with `+/+/`), a version, the direction, the page index, a 4-byte scope (route and path
 * parameters), the id after which the next page starts, and an 8-byte HMAC. The length makes base64 end
 * with `=`. So every token holds `+`, `/` and `=`, and a token altered in any way is refused (400), never
 * a crash.
 */
export interface Cursor {
  direction: Direction;
  /** The next page starts strictly after this id. */
  afterId: number;
  /** Index of the page this token leads to (1-based). */
  pageIndex: number;
}

type DecodedToken = { ok: true; cursor: Cursor } | { ok: false; reason: string };

const PREFIX = [0xfb, 0xff, 0xbf] as const;
const VERSION = 1;
const LENGTH = 23;
const MAC_LENGTH = 8;

export function createTokenCodec(secret: string) {
  const mac = (bytes: Buffer) => createHmac("sha256", secret).update(bytes).digest().subarray(0, MAC_LENGTH);
  const scopeHash = (scope: string) =>
    createHmac("sha256", secret).update(`scope:${scope}`).digest().subarray(0, 4);

  return {
    encode(scope: string, cursor: Cursor): string {
      const bytes = Buffer.alloc(LENGTH);
      bytes.set(PREFIX, 0);
      bytes.writeUInt8(VERSION, 3);
      bytes.writeUInt8(cursor.direction === "asc" ? 0 : 1, 4);
      bytes.writeUInt16BE(Math.min(0xffff, Math.max(1, cursor.pageIndex)), 5);
      bytes.set(scopeHash(scope), 7);
      bytes.writeUInt32BE(cursor.afterId >>> 0, 11);
      bytes.set(mac(bytes.subarray(0, LENGTH - MAC_LENGTH)), LENGTH - MAC_LENGTH);
      return bytes.toString("base64");
    },
    /** `scope` undefined takes a token of any listing (the `foreign-token-accepted` fault). */
    decode(scope: string | undefined, token: string): DecodedToken {
      if (!/^[A-Za-z0-9+/]+={0,2}$/.test(token)) {
        return { ok: false, reason: "it is not a token this service issued (unexpected characters)" };
      }
      const bytes = Buffer.from(token, "base64");
      if (bytes.length !== LENGTH || bytes.toString("base64") !== token) {
        return { ok: false, reason: "it is not a token this service issued (wrong length)" };
      }
      const expected = mac(bytes.subarray(0, LENGTH - MAC_LENGTH));
      if (!timingSafeEqual(expected, bytes.subarray(LENGTH - MAC_LENGTH)) || bytes.readUInt8(3) !== VERSION) {
        return { ok: false, reason: "it was altered (send it back exactly as received)" };
      }
      if (scope !== undefined && !scopeHash(scope).equals(bytes.subarray(7, 11))) {
        return { ok: false, reason: "it belongs to another listing, or to another date window of it" };
      }
      return {
        ok: true,
        cursor: {
          direction: bytes.readUInt8(4) === 0 ? "asc" : "desc",
          pageIndex: bytes.readUInt16BE(5),
          afterId: bytes.readUInt32BE(11),
        },
      };
    },
  };
}

export type TokenCodec = ReturnType<typeof createTokenCodec>;
