import { createHmac } from "node:crypto";
import type { TokenStyle } from "./scenarios.js";

/** Makes continuation tokens: deterministic for a given seed, unique within one mint. */
export type TokenMint = () => string;

/** The fixed start the service-style tokens share (base64 of it is `+/+/`), as the sandbox's do. */
const PREFIX = Buffer.from([0xfb, 0xff, 0xbf]);

/**
 * A mint of tokens in a style:
 * - `service`: base64 of 22 bytes, so every token holds `+` and `/` and ends with `==`, like the service's;
 * - `tricky`: tokens holding `+ / = % &`, spaces, `%2B`-looking text and a lone `%`: any decoding twice,
 *   encoding not at all or splitting on `&` changes them.
 *
 * @example createTokenMint("tricky", "run-1")() // "+/= 1 a%2Bb&c=d %zz …=="
 */
export function createTokenMint(style: TokenStyle, seed: string): TokenMint {
  let counter = 0;
  const digest = (n: number) => createHmac("sha256", seed).update(`token:${n}`).digest();
  return () => {
    counter += 1;
    const bytes = digest(counter);
    switch (style) {
      case "service":
        return Buffer.concat([PREFIX, bytes.subarray(0, 19)]).toString("base64");
      case "tricky": {
        const hex = bytes.subarray(0, 4).toString("hex");
        return `+/= ${counter} a%2Bb&c=d %zz%26 e+f/${hex} &=`;
      }
    }
  };
}
