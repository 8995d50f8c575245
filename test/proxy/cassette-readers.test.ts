import { readFile, writeFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IsoDay } from "../../core/dates.js";
import { formatError, isAssopayError } from "../../core/errors.js";
import { loadCassette, startReplay } from "../../proxy/index.js";
import { loadCassetteIntoNock } from "../../proxy/nock.js";
import { credentialsEnv, type RunningSandbox, startSandbox } from "../../sandbox/index.js";
import { contract } from "../specs/support/harness.js";
import { runCli } from "../support/run-cli.js";
import { type Exchange, writeCassette } from "./support/cassettes.js";
import { tempDir } from "./support/http.js";

/**
 * One suite for every cassette reader: each reader is given the same files and must read the same
 * interactions out of them, say the same things of them, and refuse the same ones. A reader is the whole
 * verb as a user runs it (its CLI, its server, its library call), and what it read is seen from outside:
 * the ids it reports, or the recorded answers it serves.
 */

/** What a reader made of a file: the interaction ids it read, and everything it said while reading. */
type Reading =
  | { readonly kind: "read"; readonly ids: readonly number[]; readonly said: string }
  | { readonly kind: "refused"; readonly said: string };

interface Reader {
  readonly name: string;
  read(file: string): Promise<Reading>;
}

const ORIGIN = "https://api.helloasso.com";
const DAY = "2025-05-01" as IsoDay;

/** Interaction n asks for the caller's partner with `?n=n` and was answered a 401 that names n. */
const exchange = (n: number, body = `{"n":${n}}`): Exchange => ({
  path: "/v5/partners/me",
  query: { n: String(n) },
  status: 401,
  body: { text: body },
  headers: { "content-type": "application/json" },
});

/** The ids whose recorded answer `get` was served: a 401 whose body names that id. */
async function servedIds(get: (n: number) => Promise<Response>): Promise<number[]> {
  const ids: number[] = [];
  for (const n of [1, 2, 3]) {
    const response = await get(n);
    const text = await response.text();
    if (response.status === 401 && text.startsWith(`{"n":${n}}`)) ids.push(n);
  }
  return ids;
}

/** The error a library reader threw, as the CLI would print it; anything else is rethrown. */
function refusal(error: unknown): Reading {
  if (isAssopayError(error)) return { kind: "refused", said: formatError(error) };
  throw error;
}

/** The JSON report's part every verb shares that carries what loading said. */
interface Reported {
  suites: { notes: string[] }[];
}

/** What a verb said: its standard error and its report's notes. */
function saidIn(stderr: string, report: Reported): string {
  return [stderr, ...report.suites.flatMap((suite) => suite.notes)].join("\n");
}

/** The ids at the end of verify --cassette's case ids (`cassette/x.yaml#2 GET /v5/…`). */
function caseIds(ids: readonly string[]): number[] {
  return ids.map((id) => Number(/#(\d+) /.exec(id)?.[1]));
}

describe("every cassette reader reads the same interactions out of the same file", () => {
  let temp: Awaited<ReturnType<typeof tempDir>>;
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    temp = await tempDir();
    sandbox = await startSandbox({ port: 0, at: DAY, seed: 1, contract: contract() });
  });
  afterAll(async () => {
    await sandbox?.close();
    await temp?.remove();
  });

  const readers: readonly Reader[] = [
    {
      name: "the library's loadCassette",
      async read(file) {
        const notices: string[] = [];
        try {
          const cassette = await loadCassette(file, { onNotice: (m) => notices.push(m) });
          const warnings = cassette.warnings.map((w) => `${w.file}:${w.line}: ${w.message}`);
          return {
            kind: "read",
            ids: cassette.interactions.map((i) => i.id),
            said: [...notices, ...warnings].join("\n"),
          };
        } catch (error) {
          return refusal(error);
        }
      },
    },
    {
      name: "the nock loader",
      async read(file) {
        let nocked: Awaited<ReturnType<typeof loadCassetteIntoNock>>;
        try {
          nocked = await loadCassetteIntoNock(file, { baseUrl: ORIGIN });
        } catch (error) {
          return refusal(error);
        }
        try {
          const ids = await servedIds((n) => fetch(`${ORIGIN}/v5/partners/me?n=${n}`));
          return { kind: "read", ids, said: nocked.warnings.join("\n") };
        } finally {
          nocked.restore();
        }
      },
    },
    {
      name: "assopay replay",
      async read(file) {
        const said: string[] = [];
        let replay: Awaited<ReturnType<typeof startReplay>>;
        try {
          replay = await startReplay({
            cassettes: file,
            port: 0,
            onEvent: (event) => {
              if (event.kind === "warning") said.push(event.message);
            },
          });
        } catch (error) {
          return refusal(error);
        }
        try {
          const ids = await servedIds((n) => fetch(`${replay.url}/v5/partners/me?n=${n}`));
          return { kind: "read", ids, said: said.join("\n") };
        } finally {
          await replay.close();
        }
      },
    },
    {
      name: "assopay lint",
      async read(file) {
        const run = await runCli(["lint", file, "--reporter", "json"]);
        if (run.code === 2) return { kind: "refused", said: run.stderr };
        const report = JSON.parse(run.stdout) as Reported & { interactions: { id: number }[] };
        return { kind: "read", ids: report.interactions.map((i) => i.id), said: saidIn(run.stderr, report) };
      },
    },
    {
      name: "assopay verify --cassette",
      async read(file) {
        const run = await runCli(["verify", "--cassette", file, "--at", DAY, "--reporter", "json"], {
          ASSOPAY_TARGET: sandbox.url,
          ...credentialsEnv(sandbox.credentials),
        });
        if (run.code === 2) return { kind: "refused", said: run.stderr };
        const report = JSON.parse(run.stdout) as Reported & { outcomes: { id: string }[] };
        return {
          kind: "read",
          ids: caseIds(report.outcomes.map((o) => o.id)),
          said: saidIn(run.stderr, report),
        };
      },
    },
  ];

  describe.each(readers)("$name", (reader) => {
    it("reads every interaction of a whole cassette, and says nothing of it", async () => {
      const file = temp.file(`whole-${readers.indexOf(reader)}.yaml`);
      await writeCassette(file, [exchange(1), exchange(2), exchange(3)]);
      const reading = await reader.read(file);
      expect(reading).toMatchObject({ kind: "read", ids: [1, 2, 3] });
      expect(reading.said).not.toMatch(/warning|skipped|torn|cut/i);
    });

    it("drops a last document a crash cut short, and says where it was", async () => {
      const file = temp.file(`torn-${readers.indexOf(reader)}.yaml`);
      await writeCassette(file, [exchange(1), exchange(2), exchange(3)]);
      const text = await readFile(file, "utf8");
      // Cut inside the last document, as a kill between two writes leaves it: no closing `...`.
      const lastStart = text.lastIndexOf("\n---\n") + 1;
      await writeFile(file, text.slice(0, lastStart + 20));
      const line = text.slice(0, lastStart).split("\n").length;
      const reading = await reader.read(file);
      expect(reading).toMatchObject({ kind: "read", ids: [1, 2] });
      expect(reading.said).toContain(`${file}:${line}`);
    });

    it("never takes a document written inside a recorded body for an interaction", async () => {
      const file = temp.file(`forged-${readers.indexOf(reader)}.yaml`);
      const forged = [
        '{"n":2}',
        "...",
        "---",
        "id: 99",
        'recordedAt: "2025-05-01T10:00:01.000Z"',
        "request: { method: GET, path: /v5/partners/me, headers: {} }",
        "response: { status: 200, headers: {} }",
        "...",
        "",
      ].join("\n");
      await writeCassette(file, [exchange(1), exchange(2, forged), exchange(3)]);
      const reading = await reader.read(file);
      expect(reading).toMatchObject({ kind: "read", ids: [1, 2, 3] });
    });

    it("refuses a document that breaks the format, naming its file and line", async () => {
      const file = temp.file(`broken-${readers.indexOf(reader)}.yaml`);
      await writeCassette(file, [exchange(1), exchange(2), exchange(3)]);
      const text = await readFile(file, "utf8");
      const at = text.indexOf("status: 401", text.indexOf("id: 2"));
      await writeFile(file, `${text.slice(0, at)}status: "four hundred and one"${text.slice(at + 11)}`);
      const line = text.slice(0, at).split("\n").length;
      const reading = await reader.read(file);
      expect(reading.kind).toBe("refused");
      expect(reading.said).toContain(`${file}:${line}`);
      expect(reading.said).toContain("hint:");
    });

    it("refuses a HAR file or an OpenAPI document, and says which verb reads it", async () => {
      const har = temp.file(`har-${readers.indexOf(reader)}.har`);
      await writeFile(har, JSON.stringify({ log: { version: "1.2", creator: { name: "x" }, entries: [] } }));
      const harReading = await reader.read(har);
      expect(harReading.kind).toBe("refused");
      expect(harReading.said).toContain(`${har}:1: this file is not a cassette: it looks like a HAR file`);
      expect(harReading.said).toContain("hint: import it into a cassette first: assopay har import");
      const openapi = temp.file(`openapi-${readers.indexOf(reader)}.yaml`);
      await writeFile(openapi, "openapi: 3.0.1\ninfo:\n  title: API\n  version: v5\npaths: {}\n");
      const openapiReading = await reader.read(openapi);
      expect(openapiReading.kind).toBe("refused");
      expect(openapiReading.said).toContain("it looks like an OpenAPI document");
      expect(openapiReading.said).toContain("assopay drift --openapi");
    });
  });
});
