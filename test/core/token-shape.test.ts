import { describe, expect, it } from "vitest";
import { FORMAT_CANDIDATE, redactFormats } from "../../core/secrets/formats.js";
import { placeholderFor } from "../../core/secrets/placeholder.js";
import { bytesHoldPrefixedToken, holdsPrefixedToken, looksRandom } from "../../core/secrets/token-shape.js";
import { createRedactor } from "../../proxy/redaction/redactor.js";
import { scanBody } from "../../proxy/redaction/scan.js";

const BASE62 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const URL_SAFE = `${BASE62}_-`;
const HEX = "0123456789abcdef";
const LOWER_DIGITS = "abcdefghijklmnopqrstuvwxyz0123456789";
const UPPER_DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/** `n` characters of `set`, from a fixed seed: random to the eye, the same at every run. */
function randomOf(set: string, n: number, seed: number): string {
  let x = seed | 1;
  let out = "";
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out += set[(x >>> 0) % set.length];
  }
  return out;
}

/** Prefixes and bodies of tokens that providers publish and that no entry of the formats' table names. */
const TOKENS: readonly (readonly [string, string])[] = [
  ["sl.", randomOf(URL_SAFE, 135, 1)],
  ["shippo_live_", randomOf(HEX, 40, 2)],
  ["squ_", randomOf(HEX, 40, 3)],
  ["pnu_", randomOf(BASE62, 36, 4)],
  ["tk-us-", randomOf(URL_SAFE, 48, 5)],
  ["rdme_", randomOf(LOWER_DIGITS, 70, 6)],
  ["ico-", randomOf(BASE62, 32, 7)],
  ["FLWSECK_TEST-", `${randomOf(HEX, 32, 8)}-X`],
  ["duffel_test_", randomOf(URL_SAFE, 43, 9)],
  ["fio-u-", randomOf(URL_SAFE, 64, 10)],
  ["live_", randomOf(HEX, 35, 11)],
  ["p8e-", randomOf(BASE62, 32, 12)],
  ["CLOJARS_", randomOf(LOWER_DIGITS, 60, 13)],
  ["b_", randomOf(BASE62, 44, 14)],
  ["CFPAT-", randomOf(BASE62, 43, 15)],
  ["api_org_", randomOf(BASE62, 34, 16)],
  ["oauth:", randomOf(LOWER_DIGITS, 30, 17)],
  ["dt0c01.", `${randomOf(UPPER_DIGITS, 24, 18)}.${randomOf(UPPER_DIGITS, 64, 19)}`],
];

describe("a prefixed token with a random body, whoever its provider (core/secrets/token-shape.ts)", () => {
  it.each(TOKENS.map(([prefix, body]) => [prefix, `${prefix}${body}`] as const))(
    "%s…: found in text, replaced whole, and flagged by the recorder's scan",
    (_, token) => {
      for (const around of [(t: string) => `deploy with ${t} today`, (t: string) => `{"note":"${t}"}`]) {
        const text = around(token);
        expect(FORMAT_CANDIDATE.test(text)).toBe(true);
        expect(redactFormats(text, placeholderFor)).toBe(around(placeholderFor(token)));
        const r = createRedactor(undefined, false, true);
        // Flagged (by this shape, or first by something else the token holds, such as an IBAN's look).
        expect(scanBody(Buffer.from(text), r, { keys: true, literal: false })).toBeDefined();
      }
    },
  );

  it("is found wherever it stands in a long body: the walk that skips reads every place a run covers", () => {
    const token = `pnu_${randomOf(BASE62, 36, 20)}`;
    const filler = `{"name":"Gala annuel","city":"Lyon","date":"2025-04-01T10:00:00+02:00"},`.repeat(300);
    for (let shift = 0; shift < 20; shift++) {
      const text = `${"x".repeat(shift)} ${filler}"${token}"${filler}`;
      expect(holdsPrefixedToken(text), `shifted by ${shift}`).toBe(true);
      expect(bytesHoldPrefixedToken(Buffer.from(text)), `shifted by ${shift}`).toBe(true);
    }
    expect(bytesHoldPrefixedToken(Buffer.from(filler))).toBe(false);
  });
});

describe("what the shape leaves alone: every legal value the service and its clients send", () => {
  const KEPT = [
    // Slugs and names with dashes, however long.
    "assemblee-generale-extraordinaire-2025-inscription",
    "adhesion-adolices-2023-2024",
    // File names and paths: a hash after a dash, inside a URL.
    "https://www.helloasso.com/assets/img/logos/croppedimage-f1fc3a6ba48746788ec4df2eb2023e8f.png",
    "https://www.helloasso-sandbox.com/associations/labobinette/checkout/a5228b6e2bb74b11e0a108dcf1cc3516",
    // A ticket's QR code and continuation tokens: the real service's and the sandbox's.
    "MjkxOTM6NjM4NjUxMjcwNjkyOTcyNTEw",
    "202605111952183434908_183989374",
    "+/+/AQEAAkMUgPcAmJaeS2atj3SpDnM=",
    // Identifiers, dates and words with numbers.
    "urn:uuid:3f2504e0-4f89-41d3-9a0c-0305e82c3301",
    "order_id-123456789012345678901234",
    "2025-04-01T10:00:00.1234567+02:00",
    "tierType:MembershipRegistrationForm2025",
    "Registration2024Participants",
    "jean.dupont-2024@example.org",
    "cdn-eu1.assets-static2.example.org",
    // A placeholder the recorder wrote.
    "invalid token <secret:9307d412d01ed454>",
  ];

  it.each(KEPT)("%s", (value) => {
    expect(redactFormats(`value ${value} here`, placeholderFor)).toBe(`value ${value} here`);
    expect(holdsPrefixedToken(value)).toBe(false);
  });

  it("looksRandom tells a token's body from words, numbers and short hex", () => {
    expect(looksRandom(randomOf(BASE62, 24, 21))).toBe(true);
    expect(looksRandom(randomOf(HEX, 32, 22))).toBe(true);
    expect(looksRandom("generale-extraordinaire-2025")).toBe(false);
    expect(looksRandom("Registration2024Participants")).toBe(false);
    expect(looksRandom("123456789012345678901234")).toBe(false);
    expect(looksRandom(randomOf(HEX, 19, 23))).toBe(false);
  });
});
