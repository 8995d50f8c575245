import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createAjv } from "../../contracts/ajv.js";
import type { IsoDay } from "../../core/dates.js";
import { packageRoot } from "../../core/paths.js";
import { buildSandboxData, parseDataFile } from "../../sandbox/index.js";
import { formatReport } from "../../specs/report/index.js";
import { editing } from "./support/editing-provider.js";
import { byId, checksIn, problems, verifySandbox } from "./support/harness.js";

/**
 * The two listings whose entries carry no id (an organization's forms, the partner's organizations) are
 * judged whole like the others: their entries are named by the fields routes.yaml gives (`entryKey`).
 * Data with twelve forms in one organization and twelve organizations, so that crawls at pageSize 7
 * cross page boundaries.
 */
const YAML = `organizations:
${Array.from({ length: 11 }, (_, o) => `  - slug: club-${o + 1}\n`).join("")}  - slug: club-des-formes
    forms:
${Array.from({ length: 12 }, (_, f) => `      - { type: Event, slug: soiree-${f + 1}, orders: 0 }\n`).join("")}`;
const data = () => buildSandboxData(parseDataFile(YAML, "named-entries.yaml"), 1);
const AT = "2026-01-01" as IsoDay;
const hasToken = (url: URL) =>
  [...url.searchParams.keys()].some((k) => k.toLowerCase() === "continuationtoken");

describe("verify judges the whole crawl of the listings whose entries carry no id", () => {
  it("passes the sandbox serving twelve forms and twelve more organizations", async () => {
    const report = await verifySandbox(AT, { hooks: false, data: data(), extra: { formSlug: "soiree-1" } });
    expect(problems(report)).toEqual([]);
    // Both crawled across a page boundary at the default size, every entry counted.
    expect(byId(report, "counts/real-with-withcount")?.reason).toContain(
      "v5.organization-forms: totalCount 12 = 12 crawled; v5.partner-organizations: totalCount 13 = 13 crawled",
    );
  });

  it.each([
    ["v5.organization-forms", /\/v5\/organizations\/[^/]+\/forms$/, /lost 1 entry \(Event\/soiree-\d+\)/],
    ["v5.partner-organizations", /\/v5\/partners\/me\/organizations$/, /lost 1 entry \(club-[a-z\d-]+\)/],
  ])("flags %s losing an entry at a page boundary, named as its route names it", async (id, path, lost) => {
    const report = await verifySandbox(AT, {
      hooks: false,
      data: data(),
      extra: { formSlug: "soiree-1" },
      // Every page after the first loses its first entry, at every page size.
      through: editing({
        body: (url, body) =>
          path.test(url.pathname) && hasToken(url) && Array.isArray(body.data)
            ? { ...body, data: body.data.slice(1) }
            : body,
      }),
    });
    const found = problems(report);
    expect(checksIn(found)).toEqual(["pagination/complete"]);
    expect(found[0]).toContain(`pagination/complete[fail]: ${id}: pageSize 7 `);
    expect(found[0]).toMatch(lost);
    // The drawn crawl's first and last ids are slugs now: the JSON report still meets its schema.
    const schema = JSON.parse(readFileSync(join(packageRoot(), "report", "report.schema.json"), "utf8"));
    const validate = createAjv().compile(schema);
    const json = formatReport(report, "json");
    expect(json).toMatch(/"firstId": ?"/);
    expect(validate(JSON.parse(json)), JSON.stringify(validate.errors)).toBe(true);
  });
});
