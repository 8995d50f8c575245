import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { packageRoot } from "../../core/paths.js";
import { type DocLine, docLines } from "./doc-lines.js";
import { type BlockState, type LineResult, portsUsed, redirectTo, runAssopay, runCurl } from "./run-line.js";

/**
 * Every command line of the ```sh blocks of README.md and docs/*.md either runs here, offline, against
 * local servers, as written (ports aside: a server takes a free port and the lines after it talk to
 * that one), or is listed below with the reason it cannot. A line that is neither fails the test, so a
 * new example is run or explained. A run example must end with 0 or 1 (a verdict), never a mistake.
 */
const SKIPPED: readonly [RegExp, string][] = [
  [/^(npm |\.ci\/run)/, "installs, or runs the project's own scripts and suite (CI runs those)"],
  [/^node |^python3 |^[A-Z_]+=/, "the reader's own application, or the project's benchmarks"],
  [/^export /, "sets up the reader's shell for the application"],
  [/^\{/, "output shown after the command, not a command"],
  [/\$[A-Z_]+/, "uses a variable of the reader's shell (a Git SHA, a key, the recorder's exports)"],
  [/…|\bURL\b|\bKEY\b|\[--/, "a synopsis with placeholders for the reader's own values"],
  [
    /(recordings\/(session|app|curl)|\bsession|checkout|session-from-the-real-service|my-forms)\.yaml|announced\.yaml/,
    "a file of the reader's own (a recording of the real service, an announced timeline)",
  ],
  [
    /--upstream https:|helloasso(-sandbox)?\.com\/|my-tunnel|broker\.example/,
    "needs the real service, a tunnel or a Pact Broker",
  ],
  [/-- node /, "runs the reader's SDK script"],
  [/^npx (pact|prism) /, "an official tool's own command: test/pact and test/openapi/prism-*.test.ts run it"],
  [
    /^npx assopay verify( --at \S+)?( --planned warn)?$/,
    "a whole verify run (a minute or more; test/specs covers it), with the reader's ASSOPAY_* for --planned",
  ],
  [/^npx assopay contracts$/, "writes contracts/pacts/ of this checkout; 'contracts --check' reads the same"],
];

/** Lines run with one change, and why. */
const NARROWED: readonly [RegExp, string[], string][] = [
  [
    /^npx assopay verify --target /,
    ["--only", "versions"],
    "a whole verify run takes a minute: one group shows the flags and the credentials hold",
  ],
  [
    /^npx assopay verify --at-each timeline /,
    ["--only", "versions"],
    "a whole verify at each of 13 dates takes minutes: one group shows the run across dates",
  ],
];

/** The servers a block talks to without starting them: the docs say what runs there. */
const FIXTURES: Record<number, string[]> = {
  4545: ["sandbox"],
  8471: ["replay", "--cassette", "recordings/pagination-crawl.yaml"],
};

const root = packageRoot();
const files = ["README.md", ...readdirSync(join(root, "docs")).map((f) => `docs/${f}`)].filter((f) =>
  f.endsWith(".md"),
);
const temp = mkdtempSync(join(tmpdir(), "assopay-doc-examples-"));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** A folder where the examples' relative paths resolve: contracts/ and recordings/ as in a checkout. */
function workFolder(name: string): string {
  const work = join(temp, name.replace(/\W/g, "_"));
  mkdirSync(join(work, "recordings"), { recursive: true });
  symlinkSync(join(root, "contracts"), join(work, "contracts"));
  for (const file of readdirSync(join(root, "recordings"))) {
    symlinkSync(join(root, "recordings", file), join(work, "recordings", file));
  }
  return work;
}

function skipReason(line: DocLine): string | undefined {
  return SKIPPED.find(([pattern]) => pattern.test(line.text))?.[1];
}

async function runLine(line: DocLine, state: BlockState): Promise<LineResult[]> {
  const results: LineResult[] = [];
  for (const command of line.commands) {
    const [program, ...rest] = command;
    const extra = NARROWED.find(([pattern]) => pattern.test(line.text))?.[1] ?? [];
    if (program === "curl") {
      for (const port of portsUsed(rest)) {
        const fixture = FIXTURES[port];
        if (!state.ports.has(port) && fixture) {
          await runAssopay([...fixture, "--port", String(port)], state);
        }
      }
      // --fail: an error status is a failed example, as the docs show only answers that work.
      results.push(await runCurl(["--fail", ...rest], state));
      continue;
    }
    const args =
      program === "npx" && rest[0] === "assopay" ? rest.slice(1) : program === "assopay" ? rest : [];
    expect(args.length, `${line.where}: neither run nor skipped: ${line.text}`).toBeGreaterThan(0);
    const before = new Map(state.ports);
    const serving = state.stops.length;
    const result = await runAssopay([...args, ...extra], state);
    // A server started without `&` holds the reader's terminal until Ctrl-C: nothing after it uses it.
    if (!line.background && state.stops.length > serving) {
      expect(await state.stops.pop()?.(), `${line.where}: stops cleanly`).toBe(0);
      state.ports = before;
    }
    if (line.redirect !== undefined) redirectTo(line.redirect, result.stdout, state.work);
    results.push(result);
  }
  return results;
}

describe("the documented examples run as written (README.md, docs/*.md)", () => {
  /** Lines already run: the same line in two files runs once, to keep the test short. */
  const ran = new Set<string>();
  const work = workFolder("examples");
  const serving = /^(npx )?assopay (sandbox|record|replay)/;

  it.each(files)("%s", async (file) => {
    const lines = docLines(root, file);
    const state: BlockState = { work, ports: new Map(), stops: [] };
    try {
      for (const line of lines) {
        if (skipReason(line) !== undefined) continue;
        if (ran.has(line.text) && !line.background && !serving.test(line.text)) continue;
        ran.add(line.text);
        for (const result of await runLine(line, state)) {
          const shown = `${line.where}: ${line.text}\n${result.stderr}${result.stdout.slice(0, 500)}`;
          expect([0, 1], shown).toContain(result.code);
          expect(result.stderr, shown).not.toMatch(/^error\[/m);
        }
      }
    } finally {
      for (const stop of state.stops.reverse()) expect(await stop()).toBe(0);
    }
  });

  it("starts every documented server on the loopback interface only", () => {
    const all = files.flatMap((file) => docLines(root, file));
    const servers = all.filter((l) =>
      /^(npx )?(assopay (sandbox|record|replay)|prism (mock|proxy))\b/.test(l.text.replace(/^npx /, "")),
    );
    expect(servers.length).toBeGreaterThan(10);
    for (const line of servers) {
      const host = line.commands[0]?.[line.commands[0].indexOf("--host") + 1];
      const own = /assopay/.test(line.text);
      // Ours bind 127.0.0.1 unless told otherwise; a third-party server must be told.
      if (own && !line.text.includes("--host")) continue;
      expect(host, `${line.where}: ${line.text}`).toBe("127.0.0.1");
    }
    // The official stub server has no option for its address: it listens on 0.0.0.0 (docs/pact.md).
    expect(all.filter((l) => /pact stub\b/.test(l.text)).map((l) => l.where)).toEqual([]);
  });

  it("runs most examples, and says why for every one it leaves out", () => {
    const all = files.flatMap((file) => docLines(root, file));
    const skipped = all.filter((line) => skipReason(line) !== undefined);
    expect(all.length - skipped.length).toBeGreaterThanOrEqual(25);
    for (const [, reason] of SKIPPED) expect(reason.length).toBeGreaterThan(20);
  });
});
