import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { emitDocument } from "../../proxy/cassette/emit.js";
import { rawText } from "../../proxy/record/body-encoder.js";
import { createRedactor } from "../../proxy/redaction/redactor.js";

const secretsOnly = () => createRedactor(undefined, false, true);
const withPii = () => createRedactor(undefined, true, true);
const line = (text: string) => Buffer.from(text, "utf8");

/** What a cassette reads back for a body written by the raw path at `text:`. */
function readBack(block: NonNullable<ReturnType<typeof rawText>>): unknown {
  const written = emitDocument({ response: { body: { text: block } } });
  return (parse(written) as { response: { body: { text: unknown } } }).response.body.text;
}

describe("the raw fast path for large bodies", () => {
  it("keeps one safe line as its bytes, a final newline noted, and reads back as the same text", () => {
    const text = '{"data":[{"id":1,"note":"é"}],"pagination":{"continuationToken":"t+/="}}\n';
    const raw = rawText(line(text), secretsOnly(), 6);
    expect(raw?.parts[1]?.toString()).toBe(text.slice(0, -1));
    expect(raw && readBack(raw)).toBe(text);
    const without = rawText(line(text.slice(0, -1)), secretsOnly(), 6);
    expect(without && readBack(without)).toBe(text.slice(0, -1));
  });

  it("refuses what needs redacting: a secret field, a personal field under pii, a secret already met", () => {
    expect(rawText(line('{"a":1,"access_token":"x"}'), secretsOnly(), 6)).toBeUndefined();
    // However the key is written, and secrets known by their shape alone.
    expect(rawText(line('{"a":1,"\\u0061ccess_token":"x"}'), secretsOnly(), 6)).toBeUndefined();
    expect(rawText(line('{"note":"card 4111 1111 1111 1111"}'), secretsOnly(), 6)).toBeUndefined();
    expect(rawText(line('{"payer":{"firstName":"Zoé"}}'), secretsOnly(), 6)).toBeDefined();
    expect(rawText(line('{"payer":{"firstName":"Zoé"}}'), withPii(), 6)).toBeUndefined();
    const met = secretsOnly();
    met.secrets.redact("sk_known_secret_1");
    expect(rawText(line('{"note":"sk_known_secret_1"}'), met, 6)).toBeUndefined();
    expect(
      rawText(line('{"note":"a token in a value is fine","tokenish":1}'), secretsOnly(), 6),
    ).toBeDefined();
  });

  it("keeps several lines too, each indented, exactly as the emitter writes the same text", () => {
    for (const text of ["a\nb", "id;name\n1;Zoé\n\n2;Léa\n", "x\n\n\n", '{\n  "a": [\n    1\n  ]\n}']) {
      const raw = rawText(line(text), secretsOnly(), 6);
      expect(raw && readBack(raw), JSON.stringify(text)).toBe(text);
      const written = emitDocument({ response: { body: { text: raw } } });
      expect(written, JSON.stringify(text)).toBe(emitDocument({ response: { body: { text } } }));
    }
  });

  it("refuses what a literal block cannot hold as it is", () => {
    for (const text of [
      "a \nb",
      "a\t\nb",
      "\nlead",
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
      expect(rawText(line(text), secretsOnly(), 6), JSON.stringify(text)).toBeUndefined();
    }
    expect(rawText(Buffer.from([0x7b, 0xc3, 0x28, 0x7d]), secretsOnly(), 6)).toBeUndefined();
  });
});
