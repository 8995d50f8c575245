import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { judgeCompleteness } from "../../contracts/index.js";
import type { IsoDay } from "../../core/dates.js";
import { readOracle } from "../../specs/pagination/oracle.js";
import { crawlOf, desc } from "../paging/crawls.js";
import { runVerifyCli } from "./support/cli.js";
import { byId, contract, problems, verifySandbox } from "./support/harness.js";
import { rewriting } from "./support/rewriting-provider.js";

const AT = "2026-01-01" as IsoDay;
/** An order in the middle of the sandbox's 50 (not among the newest five a date window reads). */
const LOST = 10_000_030;

const folder = mkdtempSync(join(tmpdir(), "assopay-oracle-"));
function oracleFile(name: string, text: string): string {
  const file = join(folder, name);
  writeFileSync(file, text);
  return file;
}

/** A provider that lost one order everywhere: its orders listings, and its items and payments too. */
const lostEverywhere = rewriting((_query, entries) =>
  entries.filter((entry) => {
    const { id, order } = entry as { id?: unknown; order?: { id?: unknown } };
    return id !== LOST && order?.id !== LOST;
  }),
);

describe("the completeness judge with an oracle", () => {
  const all = desc(100, 30);
  const without = all.filter((id) => id !== 90);

  it("confirms a loss every crawl shares, naming the ids and the oracle", () => {
    const crawls = [
      crawlOf("default page size", without, { start: 0 }),
      crawlOf("pageSize 7", without, { sizes: [7], start: 2 }),
    ];
    expect(judgeCompleteness(crawls).losses).toEqual([]);
    const judged = judgeCompleteness(crawls, [], { source: "oracle.yaml", ids: [99, 90] });
    expect(judged.losses).toHaveLength(1);
    expect(judged.losses[0]).toMatchObject({ rule: "pagination.complete", missing: [90] });
    expect(judged.losses[0]?.reason).toMatch(
      /1 entry \(90\) is listed by the oracle oracle\.yaml and in none of the 2 crawls/,
    );
  });

  it("confirms an entry one crawl lacks without a crawl on each side of it", () => {
    const judged = judgeCompleteness(
      [
        crawlOf("pageSize 7", without, { sizes: [7], start: 0 }),
        crawlOf("pageSize 100", all, { sizes: [100], start: 2 }),
      ],
      [],
      { source: "oracle.yaml", ids: [90] },
    );
    expect(judged.suspects).toEqual([]);
    expect(judged.losses.map((l) => [l.rule, l.crawl.label, l.missing])).toEqual([
      ["pagination.complete", "pageSize 7", [90]],
    ]);
  });

  it("passes crawls that hold every id it lists", () => {
    const crawls = [
      crawlOf("default page size", all, { start: 0 }),
      crawlOf("pageSize 7", all, { sizes: [7], start: 2 }),
    ];
    expect(judgeCompleteness(crawls, [], { source: "oracle.yaml", ids: [100, 90, 71] })).toMatchObject({
      losses: [],
      suspects: [],
    });
  });
});

describe("verify --oracle", () => {
  it("turns a loss every crawl shares into a confirmed pagination.complete", async () => {
    const blind = await verifySandbox(AT, { hooks: false, through: lostEverywhere });
    expect(problems(blind)).toEqual([]);
    const file = oracleFile("lost.yaml", `v5.form-orders: [10000031, ${LOST}]\n`);
    const report = await verifySandbox(AT, {
      hooks: false,
      through: lostEverywhere,
      extra: { oracle: readOracle(file, contract()) },
    });
    const complete = byId(report, "pagination/complete");
    expect(complete?.verdict).toBe("fail");
    expect(complete?.reason).toContain(String(LOST));
    expect(complete?.reason).toContain(file);
    expect(problems(report).map((p) => p.slice(0, p.indexOf("[")))).toEqual(["pagination/complete"]);
  });

  it("passes a legal provider whose listings hold every id of the oracle, and says so", async () => {
    const file = oracleFile(
      "held.yaml",
      `v5.form-orders: [10000031, ${LOST}]\nv5.org-items: [10000001]\nv5.organization-forms: [Event/gala-annuel]\n`,
    );
    const report = await verifySandbox(AT, { hooks: false, extra: { oracle: readOracle(file, contract()) } });
    expect(problems(report)).toEqual([]);
    const reason = byId(report, "pagination/complete")?.reason;
    expect(reason).toContain(`v5.form-orders holds the 2 entries of the oracle ${file}`);
    expect(reason).toContain(`v5.organization-forms holds the 1 entry of the oracle ${file}`);
  });

  it.each([
    ["a list", "- 10000031\n", /lost.yaml:1: this file is not a verify oracle/],
    ["a map of another format", "root: x\n", /lost.yaml:1: this file is not a verify oracle/],
    ["an unknown route", "v5.form-orders: [1]\nv5.nothing: [2]\n", /:2: "v5.nothing" is not a listing route/],
    [
      "an id that is not one",
      "v5.form-orders:\n  - 1\n  - {id: 2}\n",
      /:3: v5.form-orders\[1\] is not an id/,
    ],
    ["an empty list", "v5.form-orders: []\n", /:1: v5.form-orders is not a list of ids/],
  ])("exits 2 with the file, the line and a hint for %s", async (_, text, message) => {
    const file = oracleFile("lost.yaml", text);
    const run = await runVerifyCli(["--oracle", file, "--only", "pagination"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).toMatch(/hint: /);
  });
});
