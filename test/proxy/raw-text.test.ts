import { describe, expect, it } from "vitest";
import { rawLine } from "../../proxy/cassette/raw-text.js";
import { FieldClassifier } from "../../proxy/redaction/fields.js";

const fields = new FieldClassifier();
const secretKey = (key: string) => fields.kind(key) === "secret";
const anyKind = (key: string) => fields.kind(key) !== "plain";
const line = (text: string) => Buffer.from(text, "utf8");

describe("the raw fast path for large bodies", () => {
  it("keeps one safe line as its bytes, a final newline noted", () => {
    const body = line('{"data":[{"id":1,"note":"é"}],"pagination":{"continuationToken":"t+/="}}\n');
    const raw = rawLine(body, [], secretKey, false);
    expect(raw?.trailingNewline).toBe(true);
    expect(raw?.bytes.toString()).toBe(body.toString().slice(0, -1));
  });

  it("refuses what needs redacting: a secret field, a personal field under pii, a secret already met", () => {
    expect(rawLine(line('{"a":1,"access_token":"x"}'), [], secretKey, false)).toBeUndefined();
    expect(rawLine(line('{"payer":{"firstName":"Zoé"}}'), [], secretKey, false)).toBeDefined();
    expect(rawLine(line('{"payer":{"firstName":"Zoé"}}'), [], anyKind, true)).toBeUndefined();
    expect(
      rawLine(line('{"note":"sk_known_secret_1"}'), ["sk_known_secret_1"], secretKey, false),
    ).toBeUndefined();
    expect(
      rawLine(line('{"note":"a token in a value is fine","tokenish":1}'), [], secretKey, false),
    ).toBeDefined();
  });

  it("refuses what a literal block cannot hold as it is", () => {
    for (const text of [
      "a\nb",
      " lead",
      "trail ",
      "tab\t",
      "nul\u0000",
      "esc\u001b",
      "del\u007f",
      "cr\r",
      "c1\u0085",
      "ls\u2028",
      "\ufeffbom",
      "",
    ]) {
      expect(rawLine(line(text), [], secretKey, false), JSON.stringify(text)).toBeUndefined();
    }
    expect(rawLine(Buffer.from([0x7b, 0xc3, 0x28, 0x7d]), [], secretKey, false)).toBeUndefined();
  });
});
