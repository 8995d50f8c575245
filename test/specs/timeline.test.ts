import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { IsoDay } from "../../core/dates.js";
import { type RunningSandbox, startSandbox } from "../../sandbox/index.js";
import { runCli } from "../support/run-cli.js";
import { contract } from "./support/harness.js";

/** The day before and the day of the default flip, and the v3 switch-off: counts and versions change. */
const DATES = ["2025-03-14", "2025-03-15", "2025-06-30"] as IsoDay[];
const ONLY = ["--only", "counts,versions"];

interface Json {
  matrix: {
    basis: string;
    note: string;
    dates: { day: string }[];
    rows: { id: string; cells: { cell: string }[] }[];
  };
  outcomes: { id: string; verdict: string }[];
}

/** Each matrix cell is what a one-date run of that date said of that check (a skip: not yet in force). */
async function expectSameAsSingleRuns(json: Json, single: (at: IsoDay) => string[]) {
  expect(json.matrix.dates.map((d) => d.day)).toEqual(DATES);
  for (const [i, at] of DATES.entries()) {
    const cli = await runCli([...single(at), ...ONLY, "--reporter", "json"]);
    const one = JSON.parse(cli.stdout) as Json;
    for (const row of json.matrix.rows) {
      const verdict = one.outcomes.find((o) => o.id === row.id)?.verdict;
      const cell = row.cells[i]?.cell;
      if (cell === "not-in-force") expect(["skip", "pass"], `${row.id} at ${at}`).toContain(verdict);
      else expect(cell, `${row.id} at ${at}`).toBe(verdict);
    }
  }
  const cells = json.matrix.rows.flatMap((r) => r.cells.map((c) => c.cell));
  expect(cells).toContain("not-in-force");
  expect(cells).toContain("pass");
}

/** `verify --target` (the sandbox, or `url` in front of it) with its reader client, organization and form. */
function targetFlags(sandbox: RunningSandbox, url = sandbox.url): string[] {
  const c = sandbox.credentials;
  return [
    "verify",
    ...["--target", url, "--client-id", c.reader.clientId, "--client-secret", c.reader.clientSecret],
    ...["--organization", c.organizationSlug, "--form-type", c.formType, "--form-slug", c.formSlug],
  ];
}

describe("verify across the timeline", () => {
  it("judges the embedded sandbox at each date as one-date runs do", async () => {
    const cli = await runCli(["verify", "--at-each", DATES.join(","), ...ONLY, "--reporter", "json"]);
    expect(cli.code, cli.stderr).toBe(0);
    const json = JSON.parse(cli.stdout) as Json;
    expect(json.matrix.basis).toBe("behaviour-at-each-date");
    expect(json.matrix.note).toContain("A fresh embedded sandbox per date");
    const row = json.matrix.rows.find((r) => r.id === "versions/v3-switched-off");
    expect(row?.cells.map((c) => c.cell)).toEqual(["not-in-force", "not-in-force", "pass"]);
    await expectSameAsSingleRuns(json, (at) => ["verify", "--at", at]);
  });

  it("judges a provider at a fixed date by each date's rules, and says so", async () => {
    const sandbox = await startSandbox({
      port: 0,
      at: "2025-04-01" as IsoDay,
      entries: 50,
      contract: contract(),
    });
    try {
      const target = targetFlags(sandbox);
      const cli = await runCli([...target, "--at-each", DATES.join(","), ...ONLY, "--reporter", "json"]);
      const json = JSON.parse(cli.stdout) as Json;
      expect(json.matrix.basis).toBe("one-behaviour-each-date-rules");
      expect(json.matrix.note).toContain("today's behaviour is judged by each date's rules");
      // The provider stays at 2025-04-01 and still serves v3: judged by the rules of 2025-06-30, that fails.
      expect(cli.code).toBe(1);
      const v3 = json.matrix.rows.find((r) => r.id === "versions/v3-switched-off");
      expect(v3?.cells.map((c) => c.cell)).toEqual(["not-in-force", "not-in-force", "fail"]);
      await expectSameAsSingleRuns(json, (at) => [...target, "--at", at]);
    } finally {
      await sandbox.close();
    }
  });

  it("moves a target with provider states to each date, as the embedded sandbox at that date", async () => {
    const sandbox = await startSandbox({ port: 0, at: "2025-04-01" as IsoDay, contract: contract() });
    try {
      const cli = await runCli([
        ...targetFlags(sandbox),
        "--state-url",
        sandbox.stateUrl ?? "",
        "--at-each",
        DATES.join(","),
        ...ONLY,
        "--reporter",
        "json",
      ]);
      expect(cli.code, cli.stderr).toBe(0);
      const json = JSON.parse(cli.stdout) as Json;
      expect(json.matrix.basis).toBe("behaviour-at-each-date");
      expect(json.matrix.note).toContain('"the service date" provider state');
      await expectSameAsSingleRuns(json, (at) => ["verify", "--at", at]);
    } finally {
      await sandbox.close();
    }
  });

  it("writes the run across dates as an HTML page with --output, and replaces a page it wrote", async () => {
    const dir = mkdtempSync(join(tmpdir(), "assopay-html-"));
    const file = join(dir, "verify.html");
    try {
      for (const round of [1, 2]) {
        const argv = ["verify", "--at-each", "2025-06-29,2025-06-30", "--only", "versions"];
        const cli = await runCli([...argv, "--reporter", "html", "--output", file]);
        expect(cli.code, `round ${round}: ${cli.stderr}`).toBe(0);
        expect(cli.stdout).toContain("Across 2 dates");
      }
      const page = readFileSync(file, "utf8");
      expect(page.startsWith("<!DOCTYPE html>")).toBe(true);
      expect(page).toContain('<table class="matrix" id="matrix">');
      expect(page).toContain('data-cell="not-in-force" data-day="2025-06-29"');
      expect(page).toContain('<a href="#rule-versions.v3-switched-off">');
      const single = await runCli(["verify", "--only", "versions", "--reporter", "html"]);
      expect(single.stdout).toContain('<dt id="rule-versions.v5-unaffected">');
      expect(single.stdout).not.toContain('id="matrix"');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("crawls a provider at a fixed date once for every date, not once per date", async () => {
    const sandbox = await startSandbox({
      port: 0,
      at: "2025-04-01" as IsoDay,
      entries: 50,
      contract: contract(),
    });
    let listings = 0;
    const front = createServer((req, res) => {
      if (/^\/v[35]\/.*\/(items|orders|payments|forms|organizations)\b/.test(req.url ?? "")) listings++;
      const upstream = request(
        `${sandbox.url}${req.url}`,
        { method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(upstream);
    });
    await new Promise<void>((done) => front.listen(0, "127.0.0.1", done));
    const { port } = front.address() as AddressInfo;
    try {
      const target = [
        ...targetFlags(sandbox, `http://127.0.0.1:${port}`),
        "--only",
        "pagination",
        "--reporter",
        "json",
      ];
      // 2025-03-14 serves v3 too: its run crawls every listing the dates of the run crawl.
      await runCli([...target, "--at", "2025-03-14"]);
      const one = listings;
      listings = 0;
      const across = await runCli([...target, "--at-each", DATES.join(",")]);
      expect(JSON.parse(across.stdout).matrix.dates).toHaveLength(3);
      expect(one).toBeGreaterThan(10);
      // The crawls are shared; only the checks' own probes (pageSize 101, a token sent back) are per date.
      expect(listings).toBeGreaterThanOrEqual(one);
      expect(listings).toBeLessThan(one * 1.5);
    } finally {
      front.close();
      await sandbox.close();
    }
  });

  it("refuses --at-each with --cassette", async () => {
    const cli = await runCli(["verify", "--cassette", "x.yaml", "--at-each", "timeline"]);
    expect(cli.code).toBe(2);
    expect(cli.stderr).toContain("--at-each does not apply to --cassette");
  });
});
