import { readFile, writeFile } from "node:fs/promises";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AssopayError, formatError } from "../../core/errors.js";
import { emitDocument } from "../../proxy/cassette/emit.js";
import { CASSETTE_FORMAT } from "../../proxy/cassette/format.js";
import { loadCassette, parseCassette } from "../../proxy/cassette/reader.js";
import { cassetteSchema, createCassetteValidator } from "../../proxy/cassette/schema.js";
import { DocumentWriter, openCassette } from "../../proxy/cassette/writer.js";
import { startRecorder } from "../../proxy/record/server.js";
import { tempDir } from "./support/http.js";

const HEADER = {
  format: CASSETTE_FORMAT,
  upstream: "http://127.0.0.1:9/",
  recordedAt: "2025-05-01T10:00:00.000Z",
  tool: "assopay-contract@0.1.0",
  redaction: { secrets: "hmac-sha256", salted: false, pii: false },
} as const;

function interaction(id: number) {
  return {
    id,
    recordedAt: "2025-05-01T10:00:01.000Z",
    request: {
      method: "GET",
      path: `/v5/things/${id}`,
      query: { pageSize: "20" },
      headers: { accept: "application/json" },
    },
    response: {
      status: 200,
      headers: { "content-type": "application/json" },
      body: { json: { id, name: `thing ${id}`, tags: ["a", "b"] } },
    },
  };
}

const CASSETTE = [
  emitDocument(HEADER),
  emitDocument(interaction(1)),
  emitDocument(interaction(2)),
  emitDocument(interaction(3)),
].join("");

function failure(text: string): AssopayError {
  try {
    parseCassette(text, "c.yaml");
  } catch (error) {
    if (error instanceof AssopayError) return error;
    throw error;
  }
  throw new Error("expected the cassette to be refused");
}

describe("reading cassettes", () => {
  it("reads the header and every interaction, each with the line it starts on", () => {
    const cassette = parseCassette(CASSETTE, "c.yaml");
    expect(cassette.header).toEqual(HEADER);
    expect(cassette.interactions.map((i) => [i.id, i.source.line])).toEqual([
      [1, 11],
      [2, 33],
      [3, 55],
    ]);
    expect(cassette.interactions[1]).toMatchObject(interaction(2));
  });

  it("skips a last document cut anywhere by a crash, with a warning, and keeps the others", () => {
    const validator = createCassetteValidator();
    const lastStart = CASSETTE.lastIndexOf("---\n");
    for (const cut of [lastStart + 3, lastStart + 4]) {
      expect(parseCassette(CASSETTE.slice(0, cut), "c.yaml")).toMatchObject({
        interactions: [{ id: 1 }, { id: 2 }],
        warnings: [],
      });
    }
    for (let cut = lastStart + 5; cut < CASSETTE.length - 1; cut++) {
      const cassette = parseCassette(CASSETTE.slice(0, cut), "c.yaml", validator);
      expect(
        cassette.interactions.map((i) => i.id),
        `cut at ${cut}`,
      ).toEqual([1, 2]);
      expect(cassette.warnings).toEqual([
        {
          file: "c.yaml",
          line: 55,
          message:
            "incomplete document (no closing '...'), skipped: the recorder was probably stopped while writing it",
        },
      ]);
    }
    expect(parseCassette(CASSETTE.slice(0, -1), "c.yaml").interactions).toHaveLength(3);
  });

  it("skips a cut document followed by later appends (a crash, then mode new)", () => {
    const cut = CASSETTE.slice(0, CASSETTE.lastIndexOf("---\n") + 40);
    const resumed = `${cut}\n${emitDocument(interaction(4))}`;
    const cassette = parseCassette(resumed, "c.yaml");
    expect(cassette.interactions.map((i) => i.id)).toEqual([1, 2, 4]);
    expect(cassette.warnings).toHaveLength(1);
  });

  it("reports bad YAML with the file and line", () => {
    const error = failure(CASSETTE.replace("  status: 200\n", "  status: [200\n"));
    expect(error.code).toBe("bad-cassette");
    expect(error.exitCode).toBe(2);
    expect(error.location?.file).toBe("c.yaml");
    expect(error.location?.line).toBeGreaterThanOrEqual(21);
    expect(error.message).toMatch(/^the cassette document is not valid YAML: /);
  });

  it("reports a document that does not match the schema, at the offending line", () => {
    const error = failure(
      CASSETTE.replace(
        "  status: 200\n  headers:\n    content-type: application/json\n  body:\n    json:\n      id: 2",
        '  status: "200"\n  headers:\n    content-type: application/json\n  body:\n    json:\n      id: 2',
      ),
    );
    expect(formatError(error)).toBe(
      "error[bad-cassette]: c.yaml:44: the interaction does not match the cassette schema: response.status must be integer\nhint: every document starts with '---' and ends with '...'; see docs/cassettes.md",
    );
    const body = failure(
      CASSETTE.replace("  body:\n    json:\n      id: 3", "  body:\n    yaml:\n      id: 3"),
    );
    expect(body.message).toBe(
      "the interaction does not match the cassette schema: response.body must have exactly one of json, text or base64 (and optionally encoding)",
    );
    expect(body.location?.line).toBe(70);
  });

  it("refuses another format, an empty file and a reused id", () => {
    expect(failure(CASSETTE.replace("assopay-cassette/1", "assopay-cassette/9")).message).toBe(
      'the cassette is format "assopay-cassette/9"; this tool reads "assopay-cassette/1"',
    );
    expect(failure("").message).toBe("the cassette is empty: it has no header document");
    const reused = failure(CASSETTE.replace("id: 3\n", "id: 1\n"));
    expect(reused.message).toBe("interaction id 1 is already used at line 11");
    expect(reused.location?.line).toBe(56);
  });

  it("says which file it cannot read", async () => {
    await expect(loadCassette("/nonexistent/c.yaml")).rejects.toMatchObject({
      code: "bad-cassette",
      location: { file: "/nonexistent/c.yaml" },
    });
  });
});

describe("the cassette schema", () => {
  // createCassetteValidator does not check the schema against the meta-schema on each load: this does.
  const metaValid = (schema: unknown) => new Ajv2020({ strict: true }).validateSchema(schema as object);

  it("is a valid JSON Schema 2020-12 document", () => {
    expect(metaValid(cassetteSchema)).toBe(true);
  });

  it("would be told from a broken one", () => {
    expect(metaValid({ ...cassetteSchema, $defs: { header: { type: "record" } } })).toBe(false);
  });
});

describe("writing cassettes", () => {
  let temp: Awaited<ReturnType<typeof tempDir>>;
  beforeAll(async () => {
    temp = await tempDir();
  });
  afterAll(async () => {
    await temp.remove();
  });

  it("only ever appends: what was written before stays byte for byte", async () => {
    const file = temp.file("append.yaml");
    await writeFile(file, CASSETTE.slice(0, -30));
    const before = await readFile(file);
    const open = await openCassette(file, "append", HEADER);
    const writer = new DocumentWriter(open.fd, 4, () => undefined);
    writer.append(interaction(4));
    writer.append(interaction(5));
    writer.flush();
    await open.close();
    const after = await readFile(file);
    expect(after.subarray(0, before.length).equals(before)).toBe(true);
    const cassette = await loadCassette(file);
    expect(cassette.interactions.map((i) => i.id)).toEqual([1, 2, 4, 5]);
    expect(cassette.warnings).toHaveLength(1);
  });

  it("lets one recorder at a time write a cassette, and takes over the lock of a dead one", async () => {
    const file = temp.file("locked.yaml");
    const first = await startRecorder({ upstream: "http://127.0.0.1:9", cassette: file });
    await expect(
      startRecorder({ upstream: "http://127.0.0.1:9", cassette: file, mode: "new" }),
    ).rejects.toMatchObject({
      code: "conflict",
      exitCode: 2,
      message: `the cassette ${file} is being recorded by process ${process.pid}`,
      hint: "stop that recorder or record to another cassette; if no recorder runs, delete the .lock file",
    });
    await first.close();
    await writeFile(`${file}.lock`, "999999999\n");
    const second = await startRecorder({ upstream: "http://127.0.0.1:9", cassette: file, mode: "new" });
    await second.close();
    await expect(readFile(`${file}.lock`)).rejects.toMatchObject({ code: "ENOENT" });
  });
});
