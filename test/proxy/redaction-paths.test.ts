import { closeSync, openSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SECRET_FIELD_NAMES } from "../../core/secrets/names.js";
import { JSON_MAP_LIMIT } from "../../proxy/cassette/body.js";
import { emitDocument } from "../../proxy/cassette/emit.js";
import { parseCassette } from "../../proxy/cassette/reader.js";
import { DocumentWriter } from "../../proxy/cassette/writer.js";
import type { CapturedExchange } from "../../proxy/record/capture.js";
import { RecordingPipeline } from "../../proxy/record/pipeline.js";
import { FieldClassifier } from "../../proxy/redaction/fields.js";
import { createRedactor } from "../../proxy/redaction/redactor.js";
import { HEADER } from "./support/cassettes.js";
import { tempDir } from "./support/http.js";

const JSON_TYPE = "application/json; charset=utf-8";
const FORM_TYPE = "application/x-www-form-urlencoded";

/** Spellings of a listed (normalised) name: as listed, upper case, and split by `_`, `-` and both. */
function spellings(name: string): string[] {
  const half = Math.ceil(name.length / 2);
  return [
    name,
    name.toUpperCase(),
    `${name.slice(0, half)}_${name.slice(half)}`,
    `${name.slice(0, 1).toUpperCase()}${name.slice(1, half)}-${name.slice(half)}`,
    [...name].join("_"),
  ];
}

/** One way a field and its value travel, as the body (or query, or header) of a captured message. */
interface Path {
  name: string;
  /** Half a megabyte a message: tried with the listed and the most split spelling only, to stay quick. */
  large?: boolean;
  message(key: string, value: string): Pick<CapturedExchange, "url" | "requestHeaders" | "requestBody">;
}

const padding = "x".repeat(JSON_MAP_LIMIT);
const json = (key: string, value: string) => ({ note: "plain", [key]: value });

const PATHS: Path[] = [
  {
    name: "JSON, fast path (canonical JSON written straight to YAML)",
    message: (key, value) => ({
      url: "/p",
      requestHeaders: { "content-type": JSON_TYPE },
      requestBody: Buffer.from(JSON.stringify(json(key, value))),
    }),
  },
  {
    name: "JSON, general path (parsed: an escape keeps it off the fast path)",
    message: (key, value) => ({
      url: "/p",
      requestHeaders: { "content-type": JSON_TYPE },
      requestBody: Buffer.from(JSON.stringify({ ...json(key, value), accent: "é" }).replace("é", "\\u00e9")),
    }),
  },
  {
    name: "JSON kept as text (pretty-printed, so not restorable from a map)",
    message: (key, value) => ({
      url: "/p",
      requestHeaders: { "content-type": JSON_TYPE },
      requestBody: Buffer.from(JSON.stringify(json(key, value), null, 2)),
    }),
  },
  {
    name: "raw text (a single line over the map limit, which the raw path must decline)",
    large: true,
    message: (key, value) => ({
      url: "/p",
      requestHeaders: { "content-type": JSON_TYPE },
      requestBody: Buffer.from(JSON.stringify({ pad: padding, ...json(key, value) })),
    }),
  },
  {
    name: "form body",
    message: (key, value) => ({
      url: "/p",
      requestHeaders: { "content-type": FORM_TYPE },
      requestBody: Buffer.from(`note=plain&${encodeURIComponent(key)}=${encodeURIComponent(value)}`),
    }),
  },
  {
    name: "query",
    message: (key, value) => ({
      url: `/p?note=plain&${encodeURIComponent(key)}=${encodeURIComponent(value)}`,
      requestHeaders: {},
      requestBody: Buffer.alloc(0),
    }),
  },
  {
    name: "header",
    message: (key, value) => ({
      url: "/p",
      requestHeaders: { [key.toLowerCase()]: value },
      requestBody: Buffer.alloc(0),
    }),
  },
];

/**
 * An exchange whose request carries `value` under `key` on `path`, and whose response echoes it (as the
 * same body when it is small, else in a small JSON body).
 */
function exchange(path: Path, key: string, value: string): CapturedExchange {
  const request = path.message(key, value);
  const echo = request.requestBody.length > 0 && request.requestBody.length <= JSON_MAP_LIMIT;
  return {
    startedAt: new Date(0),
    method: request.requestBody.length > 0 ? "POST" : "GET",
    ...request,
    status: 200,
    responseHeaders: echo ? request.requestHeaders : { "content-type": JSON_TYPE },
    responseBody: echo ? request.requestBody : Buffer.from(JSON.stringify(json(key, value))),
  };
}

/** Records the exchanges with a fresh redactor (fields classified by `fields`) and returns the file's text. */
async function recorded(file: string, exchanges: readonly CapturedExchange[], fields?: FieldClassifier) {
  const fd = openSync(file, "w");
  try {
    const writer = new DocumentWriter(fd, 1, (error) => {
      throw error;
    });
    const errors: string[] = [];
    const pipeline = new RecordingPipeline(
      writer,
      createRedactor(undefined, false, true, fields),
      [],
      (e) => {
        if (e.kind === "write-error") errors.push(e.message);
      },
    );
    for (const x of exchanges) pipeline.enqueue(x);
    await pipeline.idle();
    writer.flush();
    expect(errors).toEqual([]);
  } finally {
    closeSync(fd);
  }
  return readFileSync(file, "utf8");
}

describe("every listed secret field name is redacted on every path", () => {
  let temp: Awaited<ReturnType<typeof tempDir>>;
  beforeAll(async () => {
    temp = await tempDir();
  });
  afterAll(async () => {
    await temp.remove();
  });

  it("never lets a value under a listed name, in any spelling, reach the cassette", async () => {
    const cases: { what: string; value: string }[] = [];
    const exchanges: CapturedExchange[] = [];
    for (const name of SECRET_FIELD_NAMES) {
      const all = spellings(name);
      for (const path of PATHS) {
        for (const key of path.large ? [all[0] ?? name, all[all.length - 1] ?? name] : all) {
          const value = `S3cret-${cases.length}-value`;
          cases.push({ what: `${key} in ${path.name}`, value });
          exchanges.push(exchange(path, key, value));
        }
      }
    }
    const text = await recorded(temp.file("all-paths.yaml"), exchanges);
    // Every value has the form S3cret-N-value: one pass collects each one the text still holds (no two
    // can overlap), instead of searching the text, megabytes long, once per case.
    const left = new Set(text.match(/S3cret-\d+-value/g) ?? []);
    for (const { what, value } of cases) expect(left.has(value), what).toBe(false);
    // What was written is a cassette, every exchange in it, the values replaced by placeholders.
    const cassette = parseCassette(emitDocument({ ...HEADER }) + text, "all-paths.yaml");
    expect(cassette.interactions).toHaveLength(exchanges.length);
    expect(text.match(/<secret:[0-9a-f]{16}>/g)?.length).toBeGreaterThanOrEqual(cases.length);
    // The cases grow with the list (21 endings, each through 7 paths, 2 of them half a megabyte).
  });

  it("leaves fields the list does not name as they are, on the same paths", async () => {
    const exchanges = PATHS.map((path) => exchange(path, "tokenish", "Plain-value-kept"));
    const text = await recorded(temp.file("plain.yaml"), exchanges);
    expect(text.includes("<secret:")).toBe(false);
    expect(text.split("Plain-value-kept").length - 1).toBeGreaterThanOrEqual(PATHS.length);
  });

  it("covers a name added to the list alone on the fast paths too (no filter to update)", async () => {
    const added = new FieldClassifier([...SECRET_FIELD_NAMES, "membershipcode"]);
    const fast = PATHS.filter((p) => p.name.startsWith("JSON, fast") || p.name.startsWith("raw text"));
    const exchanges = fast.flatMap((path) =>
      spellings("membershipcode").map((key, i) =>
        exchange(path, key, `Member-${path.name.length}-${i}-code`),
      ),
    );
    const values = exchanges.map((_, i) => `Member-${fast[Math.floor(i / 5)]?.name.length}-${i % 5}-code`);
    // Without the name, the values are kept (this is what the list changes) ...
    const before = await recorded(temp.file("without.yaml"), exchanges);
    for (const value of values) expect(before.includes(value), value).toBe(true);
    // ... with it, not one reaches the cassette, on the JSON fast path as on the raw one.
    const after = await recorded(temp.file("with.yaml"), exchanges, added);
    for (const value of values) expect(after.includes(value), value).toBe(false);
  });

  it("scrubs a secret of an exchange's own headers from its large body (the raw path runs after them)", async () => {
    const token = "at_HeaderOnlyToken_77x";
    const body = Buffer.from(JSON.stringify({ pad: padding, echoed: `seen ${token}` }));
    const text = await recorded(temp.file("echo.yaml"), [
      {
        startedAt: new Date(0),
        method: "GET",
        url: "/p",
        requestHeaders: { authorization: `Bearer ${token}` },
        requestBody: Buffer.alloc(0),
        status: 200,
        responseHeaders: { "content-type": JSON_TYPE },
        responseBody: body,
      },
    ]);
    expect(text.includes(token)).toBe(false);
    expect(text.includes("echoed")).toBe(true);
  });
});
