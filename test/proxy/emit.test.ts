import { describe, expect, it } from "vitest";
import { parseDocument } from "yaml";
import { bodyBytes, classifyBody } from "../../proxy/cassette/body.js";
import { emitDocument } from "../../proxy/cassette/emit.js";
import { random, text, value } from "./support/random-data.js";

describe("the cassette YAML emitter", () => {
  it("writes documents the yaml package reads back to the same data (2000 random documents)", () => {
    const next = random(42);
    for (let i = 0; i < 2000; i++) {
      const data = { id: i, body: value(next, 0), text: text(next) };
      const written = emitDocument(data);
      const doc = parseDocument(written.slice(4, -4));
      expect(doc.errors, written).toEqual([]);
      expect(doc.toJS(), written).toEqual(data);
    }
  });

  it("writes readable YAML: plain words, literal blocks for text, quotes only where needed", () => {
    expect(
      emitDocument({
        path: "/v5/items",
        token: "<secret:0123456789abcdef>",
        size: "20",
        text: "one\ntwo\n",
        list: [{ a: 1, b: [] }],
      }),
    ).toBe(
      '---\npath: /v5/items\ntoken: <secret:0123456789abcdef>\nsize: "20"\ntext: |\n  one\n  two\nlist:\n  - a: 1\n    b: []\n...\n',
    );
  });
});

describe("long lines", () => {
  it("writes a long single line as a literal block, read back unchanged", () => {
    const line = JSON.stringify({ data: Array.from({ length: 100 }, (_, i) => ({ id: i, name: `n"${i}` })) });
    const written = emitDocument({ body: { text: line } });
    expect(written.startsWith("---\nbody:\n  text: |-\n    {")).toBe(true);
    expect(parseDocument(written.slice(4, -4)).toJS()).toEqual({ body: { text: line } });
  });
});

describe("stored bodies", () => {
  it("restore any bytes exactly: JSON only when it re-serialises identically, else text or base64", () => {
    const cases: [string, Buffer, string][] = [
      ["application/json", Buffer.from('{"a":1,"b":[true,null,"é"]}'), "json"],
      ["application/json", Buffer.from('{ "a": 1 }'), "text"],
      ["application/json", Buffer.from('{"a":1.0}'), "text"],
      ["application/json", Buffer.from('{"a":1,"a":2}'), "text"],
      ["application/json", Buffer.from('{"__proto__":{"x":1}}'), "text"],
      ["application/json", Buffer.from("\ufeff{}"), "text"],
      ["text/plain", Buffer.from("line\r\nline\u0000"), "text"],
      ["text/plain", Buffer.from([0xc3, 0x28]), "base64"],
      ["application/octet-stream", Buffer.from("looks like text"), "base64"],
      ["application/pdf", Buffer.from([0x25, 0x50, 0xff, 0x00]), "base64"],
    ];
    for (const [type, bytes, kind] of cases) {
      const stored = classifyBody(bytes, type);
      expect(Object.keys(stored)[0], `${type} ${bytes.toString("hex")}`).toBe(kind);
      const roundTrip = parseDocument(emitDocument({ body: stored }).slice(4, -4)).toJS() as {
        body: typeof stored;
      };
      expect(bodyBytes(roundTrip.body).equals(bytes), `${type} ${bytes.toString("hex")}`).toBe(true);
    }
  });
});
