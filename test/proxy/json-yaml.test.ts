import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { emitDocument } from "../../proxy/cassette/emit.js";
import { JsonToYaml } from "../../proxy/cassette/json-yaml.js";
import { random, value } from "./support/random-data.js";

const REFERENCE = new URL("../fixtures/reference/", import.meta.url);
const NOTHING_SENSITIVE = () => false;

/** The document the emitter writes for a body held as data, and the one it writes for the fast path's bytes. */
function both(json: string, transcoder = new JsonToYaml(NOTHING_SENSITIVE)) {
  const block = transcoder.transcode(Buffer.from(json, "utf8"), 6);
  const general = emitDocument({ response: { body: { json: JSON.parse(json) as unknown } } });
  const fast = block ? emitDocument({ response: { body: { json: block } } }) : undefined;
  return { general, fast };
}

describe("writing JSON bodies straight to YAML", () => {
  it("writes every reference payload exactly as the general path does", () => {
    const files = readdirSync(REFERENCE).filter((f) => f.endsWith(".json"));
    expect(files.length).toBeGreaterThan(10);
    let fast = 0;
    for (const file of files) {
      const canonical = JSON.stringify(JSON.parse(readFileSync(new URL(file, REFERENCE), "utf8")));
      const written = both(canonical);
      if (written.fast === undefined) continue;
      fast++;
      expect(written.fast, file).toBe(written.general);
    }
    // The fast path must actually be taken: most reference payloads are plain canonical JSON.
    expect(fast).toBeGreaterThan(files.length / 2);
  });

  it("writes 3000 random documents exactly as the general path does, or leaves them to it", () => {
    const next = random(7);
    let fast = 0;
    for (let i = 0; i < 3000; i++) {
      const data = { data: [value(next, 1), value(next, 1)], page: { n: i, t: value(next, 2) } };
      const written = both(JSON.stringify(data));
      if (written.fast === undefined) continue;
      fast++;
      expect(written.fast).toBe(written.general);
    }
    expect(fast).toBeGreaterThan(300);
  });

  it("writes lists of maps, nested lists, empty containers and every scalar the emitter's way", () => {
    const json = JSON.stringify({
      items: [{ id: 1, tags: ["a", "b"] }, { id: 2, tags: [] }, [1, [2, {}]], {}],
      flags: { on: true, off: false, none: null },
      words: [
        "yes",
        "No",
        "null",
        "true1",
        "Jean Dupont",
        "a: b",
        "#x",
        "",
        "é",
        "<secret:0123456789abcdef>",
      ],
      numbers: [0, -1, 1.5, -0.25, 1e21, 1e-7, 123456789012345, 1234567890123456],
    });
    const { general, fast } = both(json);
    expect(fast).toBe(general);
  });

  it("puts a block at another indent when asked, line by line", () => {
    const block = new JsonToYaml(NOTHING_SENSITIVE).transcode(Buffer.from('{"a":[{"b":1}]}'), 6);
    expect(block?.shifted(2).bytes.toString()).toBe("\n  a:\n    - b: 1\n");
    expect(emitDocument({ json: block })).toBe("---\njson:\n  a:\n    - b: 1\n...\n");
  });

  it("writes long strings the emitter's way: plain, a one-line literal block, or quoted", () => {
    const long = (text: string, times: number) => text.repeat(times);
    const strings = [
      long("x", 1024), // plain, however long
      long("x", 300_000),
      long("a b", 400), // plain: single spaces between words
      long("x#", 600), // 1,200 characters, not plain: a literal block
      `${long("a, b: {c}", 120)}!`,
      long("a  b", 300), // two spaces: not plain
      `${long("x", 1023)}#`, // exactly 1,024 characters
      `${long("x", 1022)}#`, // 1,023: quoted
      ` ${long("x#", 600)}`, // a leading space: quoted
      `${long("x#", 600)} `, // a trailing space: quoted
      long("é", 600), // 600 characters in 1,200 bytes: quoted
      long("é", 1100), // 1,100 characters: a literal block
      long("😀", 511), // 1,022 UTF-16 units in 2,044 bytes: quoted
      long("😀", 512), // 1,024 units: a literal block
      `- ${long("y", 2000)}`,
      `'${long("q", 2000)}'`,
    ];
    for (const text of strings) {
      const json = JSON.stringify({ list: [text, { deep: [text] }], text });
      const { general, fast } = both(json);
      expect(fast, text.slice(0, 40)).toBe(general);
    }
    const literal = both(JSON.stringify({ a: long("x#", 600) })).fast;
    expect(literal).toContain(`a: |-\n        ${long("x#", 600)}\n`);
  });

  it("leaves to the general path anything it would not write identically", () => {
    const refused = [
      '{ "a":1}',
      '{"a":1 }',
      '{"a" :1}',
      '["a" ,1]',
      '{"a":"b\\"c"}',
      '{"a":"\\u00e9"}',
      '{"a":"tab\there"}',
      '{"a":1.0}',
      '{"a":1e5}',
      '{"a":-0}',
      '{"a":01}',
      '{"a":+1}',
      '{"a":12345678901234567890}',
      '{"a":NaN}',
      '{"a":tru}',
      '{"a":1,"a":2}',
      `{${Array.from({ length: 20 }, (_, i) => `"k${i}":1`).join(",")},"k3":2}`,
      '{"b":1,"1":2}',
      '{"__proto__":1}',
      `{"a":"${"x y ".repeat(300)}\\u00e9"}`,
      `{"a":"${"é".repeat(1100)}\u007f"}`,
      '{"a":"del\u007f"}',
      '{"a":"line\u2028sep"}',
      '{"a":"bom\ufeff"}',
      `${"[".repeat(70)}${"]".repeat(70)}`,
      '{"a":1}x',
      '{"a":1',
      '"just a string"',
      "42",
    ];
    const transcoder = new JsonToYaml(NOTHING_SENSITIVE);
    for (const json of refused) expect(transcoder.transcode(Buffer.from(json), 6), json).toBeUndefined();
  });

  it("leaves bodies with something to redact to the general path: named fields and secrets met", () => {
    const transcoder = new JsonToYaml((key) => key === "access_token" || key === "email");
    const yaml = (json: string, secrets: string[] = []) =>
      transcoder.transcode(Buffer.from(json), 6, secrets)?.bytes.toString();
    expect(yaml('{"access_token":"abc"}')).toBeUndefined();
    expect(yaml('{"payer":{"email":"a@b.c"}}')).toBeUndefined();
    expect(yaml('{"note":"token is s3cr3t-value-1"}', ["s3cr3t-value-1"])).toBeUndefined();
    expect(yaml('{"note":"nothing here"}', ["s3cr3t-value-1"])).toBe("\n      note: nothing here\n");
  });
});
