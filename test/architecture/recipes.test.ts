import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { commands, verbs } from "../../cli/registry.js";
import { GATE_RULE_IDS, NOTIFY_RULE_IDS } from "../../contracts/consumer-rules.js";
import { packageRoot } from "../../core/paths.js";
import { REPORTER_CHOICE, REPORTERS } from "../../report/reporter.js";
import { faults } from "../../sandbox/faults.js";
import { handlerFor } from "../../sandbox/router.js";
import { allChecks } from "../../specs/index.js";
import { probes } from "../sandbox/probes.js";
import { contract } from "../specs/support/harness.js";
import { read, sources } from "./sources.js";

// docs/architecture.md's "Where to add …" against the tree: each recipe names every registry point the
// tests require, and each point holds for every check, rule, reporter, route and verb there is.

const RECIPES = ["a provider check", "a consumer rule", "a reporter", "a sandbox route", "a verb"] as const;
type Recipe = (typeof RECIPES)[number];

/** A place an addition must touch, and what it must show for every existing one (problems, or none). */
interface Point {
  readonly path: string;
  readonly holds: () => string[];
}

const exists = (path: string) => existsSync(join(packageRoot(), path));
const mentions = (file: string, needle: string) => read(file).includes(needle);
const missing = (file: string, needles: readonly string[]) =>
  needles.filter((n) => !mentions(file, n)).map((n) => `${file} does not name ${n}`);
/** The rows a doc's table lacks: each a row of its own whose first cells hold these texts (backticks aside). */
function unlisted(file: string, rows: readonly (readonly string[])[], what: string): string[] {
  const plain = (text: string) => text.replaceAll("`", "");
  const lines = plain(read(file))
    .split("\n")
    .map((line) => line.split("|").map((cell) => cell.trim()));
  return rows
    .filter((row) => !lines.some((cells) => row.every((text, i) => cells[i + 1] === plain(text))))
    .map((row) => `${file} has no row for the ${what} ${row[0]}`);
}
/** Whether some file under a folder names the text. */
const named = (folder: string, needle: string) => sources(folder).some((file) => mentions(file, needle));

/** The routes' ids, and which paginate. */
const routes = () => contract().routes.all;

const POINTS: Readonly<Record<Recipe, readonly Point[]>> = {
  "a provider check": [
    { path: "contracts/rules.yaml", holds: () => missing("contracts/rules.yaml", checkRules()) },
    {
      path: "specs/<group>/",
      holds: () => allChecks().flatMap((c) => (named(`specs/${c.group}`, `"${c.id}"`) ? [] : [c.id])),
    },
    { path: "specs/index.ts", holds: () => missing("specs/index.ts", ["allChecks()"]) },
    { path: "sandbox/faults.ts", holds: () => missing("sandbox/faults.ts", ["export const faults"]) },
    {
      path: "sandbox/",
      // The fault site: some sandbox module besides the table acts on each fault.
      holds: () =>
        faults.flatMap((f) =>
          sources("sandbox").some((file) => file !== "sandbox/faults.ts" && mentions(file, `"${f.name}"`))
            ? []
            : [`no fault site for ${f.name}`],
        ),
    },
    {
      path: "test/sandbox/probes.ts",
      holds: () =>
        checkRules()
          .filter((rule) => rule !== "pact.interactions" && !(rule in probes))
          .map((rule) => `no probe for ${rule}`),
    },
    {
      path: "docs/verify.md",
      holds: () =>
        unlisted(
          "docs/verify.md",
          allChecks().map((c) => [c.id, c.rule]),
          "check",
        ),
    },
    {
      path: "docs/sandbox.md",
      // The fault's row as `assopay sandbox --list-faults` prints it: name, rule and description.
      holds: () =>
        unlisted(
          "docs/sandbox.md",
          faults.map((f) => [f.name, f.rule, f.description]),
          "fault",
        ),
    },
  ],
  "a consumer rule": [
    {
      path: "contracts/consumer-rules.yaml",
      holds: () => missing("contracts/consumer-rules.yaml", [...GATE_RULE_IDS, ...NOTIFY_RULE_IDS]),
    },
    {
      path: "contracts/consumer-rules.ts",
      holds: () => missing("contracts/consumer-rules.ts", ["GATE_RULE_IDS", "NOTIFY_RULE_IDS"]),
    },
    {
      path: "gate/judge/",
      holds: () =>
        GATE_RULE_IDS.filter((id) => !named("gate/judge", `"${id}"`)).map((id) => `unjudged ${id}`),
    },
    { path: "cli/commands/gate.ts", holds: () => missing("cli/commands/gate.ts", GATE_RULE_IDS) },
    {
      path: "notify/cases.ts",
      holds: () =>
        missing(
          "notify/cases.ts",
          NOTIFY_RULE_IDS.map((id) => `"${id}"`),
        ),
    },
    { path: "test/gate/consumer-rules.test.ts", holds: () => [] },
    { path: "test/gate/judge.test.ts", holds: () => [] },
    { path: "test/gate/fixtures/clients/", holds: () => [] },
    { path: "test/notify/notify.test.ts", holds: () => [] },
    { path: "docs/gate.md", holds: () => missing("docs/gate.md", [...GATE_RULE_IDS, ...NOTIFY_RULE_IDS]) },
  ],
  "a reporter": [
    {
      path: "report/",
      holds: () =>
        REPORTERS.filter((name) => !exists(`report/${name}.ts`)).map((name) => `no report/${name}.ts`),
    },
    {
      path: "report/reporter.ts",
      holds: () => missing("report/reporter.ts", ["REPORTERS", "REPORTER_CHOICE"]),
    },
    {
      path: "report/index.ts",
      holds: () =>
        missing(
          "report/index.ts",
          REPORTERS.map((name) => `case "${name}":`),
        ),
    },
    {
      path: "docs/report.md",
      holds: () =>
        REPORTERS.filter((name) => !new RegExp(`^## ${name}`, "im").test(read("docs/report.md"))).map(
          (name) => `docs/report.md has no section for ${name}`,
        ),
    },
    { path: "test/report/", holds: () => [] },
  ],
  "a sandbox route": [
    {
      path: "contracts/routes.yaml",
      holds: () =>
        missing(
          "contracts/routes.yaml",
          routes().map((r) => `id: ${r.id}\n`),
        ),
    },
    { path: "contracts/schemas/", holds: () => [] },
    { path: "contracts/left-out.yaml", holds: () => [] },
    {
      path: "sandbox/router.ts",
      holds: () =>
        routes()
          .filter((r) => handlerFor(r) === undefined)
          .map((r) => `sandbox/router.ts has no handler for ${r.id}`),
    },
    { path: "sandbox/handlers/", holds: () => [] },
    { path: "sandbox/handlers/listings.ts", holds: () => [] },
    { path: "sandbox/data/", holds: () => [] },
    {
      path: "contracts/pact/resource-interactions.ts",
      holds: () =>
        routes()
          .filter((r) => !r.pagination && !named("contracts/pact", `"${r.id}"`))
          .map((r) => `no Pact interaction names ${r.id}`),
    },
    { path: "contracts/pact/listing-interactions.ts", holds: () => [] },
    { path: "contracts/pacts/", holds: () => [] },
    { path: "test/sandbox/robustness.test.ts", holds: () => [] },
    { path: "test/contracts/pacts.test.ts", holds: () => [] },
    { path: "test/contracts/catalogue-coverage.test.ts", holds: () => [] },
    { path: "test/openapi/crawl.ts", holds: () => missing("test/openapi/crawl.ts", ["PARAMS"]) },
  ],
  "a verb": [
    {
      path: "cli/commands/<verb>.ts",
      holds: () =>
        verbs().flatMap((c) => (exists(`cli/commands/${c.name}.ts`) ? [] : [`no file for ${c.name}`])),
    },
    {
      path: "cli/registry.ts",
      holds: () =>
        missing(
          "cli/registry.ts",
          verbs().map((c) => `"./commands/${c.name}.js"`),
        ),
    },
    { path: "cli/flags.ts", holds: () => [] },
    { path: "docs/bad-inputs.md", holds: () => [] },
    { path: "test/bad-input/table.test.ts", holds: () => [] },
    {
      path: "README.md",
      holds: () =>
        missing(
          "README.md",
          verbs().map((c) => `assopay ${c.name}`),
        ),
    },
  ],
};

function checkRules(): string[] {
  return [...new Set(allChecks().map((c) => c.rule))];
}

/** The recipes of docs/architecture.md: each bullet of "Where to add …", by its bold title. */
function recipes(doc: string): Map<string, string> {
  const section = doc.slice(doc.indexOf("## Where to add"));
  const found = new Map<string, string>();
  for (const item of section.split(/\n- /).slice(1)) {
    const title = /^\*\*(.+?)\*\*/.exec(item)?.[1];
    if (title) found.set(title, item);
  }
  return found;
}

/** The paths a recipe names (backticked, with a slash or a file extension); `<x>` stands for any name. */
function namedPaths(text: string): string[] {
  return [...text.matchAll(/`([^`\s]+)`/g)]
    .map((m) => m[1] ?? "")
    .filter(
      (token) =>
        /^[a-zA-Z.][\w./<>-]*(\/|\.(ts|yaml|md|json))$/.test(token) || /^[\w-]+\/[\w./<>-]+$/.test(token),
    );
}

/** Whether a named path is in the tree: up to its first placeholder. */
function inTree(path: string): boolean {
  const fixed = path.split("<")[0] ?? "";
  return exists(fixed.endsWith("/") || fixed === "" ? fixed || "." : fixed);
}

describe("the recipes of docs/architecture.md", () => {
  const found = recipes(read("docs/architecture.md"));

  it("are there for a check, a consumer rule, a reporter, a route and a verb", () => {
    for (const recipe of RECIPES) expect([...found.keys()], recipe).toContain(recipe);
  });

  it("name only paths that exist", () => {
    const absent = [...found].flatMap(([recipe, text]) =>
      namedPaths(text)
        .filter((path) => !inTree(path))
        .map((path) => `${recipe}: ${path}`),
    );
    expect(absent).toEqual([]);
  });

  it("name every registry point the tests require, and each holds for everything there is", () => {
    const problems = RECIPES.flatMap((recipe) => {
      const text = found.get(recipe) ?? "";
      return POINTS[recipe].flatMap((point) => [
        ...(text.includes(`\`${point.path}\``) ? [] : [`${recipe} does not name ${point.path}`]),
        ...(inTree(point.path)
          ? point.holds().map((p) => `${recipe}: ${p}`)
          : [`${recipe}: ${point.path} is gone`]),
      ]);
    });
    expect(problems).toEqual([]);
  });

  it("ask at most 8 files of a provider check: each addition is listed once, the rest is derived from it", () => {
    const paths = new Set(namedPaths(found.get("a provider check") ?? ""));
    expect(paths.size, [...paths].join(", ")).toBeLessThanOrEqual(8);
  });

  it("flag a recipe that leaves a point out, a path that is gone, and a point that does not hold", () => {
    const text = "- **a reporter**: a writer in `report/` and `report/nope.ts`, see `docs/report.md`.";
    const recipe = recipes(`## Where to add …\n\n${text}\n`).get("a reporter") ?? "";
    expect(namedPaths(recipe).filter((path) => !inTree(path))).toEqual(["report/nope.ts"]);
    expect(POINTS["a reporter"].filter((p) => !recipe.includes(`\`${p.path}\``)).map((p) => p.path)).toEqual([
      "report/reporter.ts",
      "report/index.ts",
      "test/report/",
    ]);
    expect(missing("report/index.ts", ['case "tap":'])).toEqual([
      'report/index.ts does not name case "tap":',
    ]);
  });

  it("a help text lists the reporters through REPORTER_CHOICE, never by hand", async () => {
    expect(REPORTER_CHOICE).toBe(REPORTERS.join("|"));
    const byHand = sources("cli").filter((file) => /pretty\|json|json or junit/.test(read(file)));
    expect(byHand).toEqual([]);
    const reporting = (await commands()).filter((c) => c.help.includes("--reporter"));
    expect(reporting.map((c) => c.name).sort()).toEqual(["drift", "gate", "lint", "notify", "verify"]);
    for (const command of reporting)
      expect(command.help, command.name).toContain(`--reporter ${REPORTER_CHOICE}`);
  });
});
