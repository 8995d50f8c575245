import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadContract } from "../../contracts/index.js";
import type { IsoDay } from "../../core/dates.js";
import { packageRoot } from "../../core/paths.js";
import { runLint } from "../../specs/lint/run.js";
import { runCli } from "../support/run-cli.js";

const contract = loadContract();
const recordings = join(packageRoot(), "recordings");
const CRAWL = join(recordings, "pagination-crawl.yaml");
const FORM = join(recordings, "public-form.yaml");
const dir = mkdtempSync(join(tmpdir(), "assopay-lint-"));
/** The day the reference recordings were made at on the sandbox's clock (test/proxy/support/record-reference.ts). */
const RECORDED_AT = "2025-04-01" as IsoDay;

/** A hand-edited copy of a reference cassette. */
function edited(source: string, name: string, edit: (text: string) => string): string {
  const text = readFileSync(source, "utf8");
  const changed = edit(text);
  expect(changed).not.toBe(text);
  const file = join(dir, name);
  writeFileSync(file, changed);
  return file;
}

const broken = async (files: string[], at: IsoDay) =>
  (await runLint(contract, files, at)).interactions
    .filter((o) => o.breaches.length > 0)
    .map((o) => ({
      id: o.step.interaction.id,
      line: o.step.interaction.source.line,
      rules: o.breaches.map((b) => b.rule),
    }));

describe("assopay lint on the clean sandbox recordings", () => {
  it("lints every recording clean at the day it was recorded", async () => {
    const files = [
      "pagination-crawl.yaml",
      "public-form.yaml",
      "order-attached-file.yaml",
      "notification.yaml",
    ].map((f) => join(recordings, f));
    expect(await broken(files, RECORDED_AT)).toEqual([]);
    const cli = await runCli(["lint", ...files, "--at", RECORDED_AT]);
    expect(cli.code).toBe(0);
    expect(cli.stdout).toContain("Every recorded answer holds to the contract.");
  });

  it("takes each interaction's day from its response date header without --at", async () => {
    const result = await runLint(contract, [FORM], undefined);
    expect(result.interactions.map((o) => `${o.date} ${o.dateFrom}`)).toEqual([
      "2026-11-22 response date header",
      "2026-11-22 response date header",
    ]);
  });
});

describe("a broken field", () => {
  it("fails schema.responses with the file and interaction", async () => {
    const file = edited(FORM, "form-broken.yaml", (t) =>
      t.replace("formSlug: adhesion-2025", "formSlug: 2025"),
    );
    expect(await broken([file], RECORDED_AT)).toEqual([{ id: 2, line: 39, rules: ["schema.responses"] }]);
    const cli = await runCli(["lint", file, "--at", RECORDED_AT]);
    expect(cli.code).toBe(1);
    expect(cli.stdout).toContain(`${file}:39 (interaction 2)`);
    expect(cli.stdout).toContain("formSlug");
  });
});

describe("counts by the count deprecation, at the interaction's day", () => {
  it("flags counts still present after their removal", async () => {
    const flagged = await broken([CRAWL], "2025-06-15" as IsoDay);
    expect(flagged.map((f) => f.id)).toEqual([2, 3, 4, 5]);
    expect(flagged.every((f) => f.rules.includes("counts.absent-after-removal"))).toBe(true);
    const cli = await runCli(["lint", CRAWL, "--at", "2025-06-15"]);
    expect(cli.code).toBe(1);
    expect(cli.stdout).toContain(`${CRAWL}:39 (interaction 2)`);
  });

  it("passes pages without counts after removal, withCount sent or not (it stays harmless)", async () => {
    const file = edited(CRAWL, "crawl-no-counts.yaml", (t) =>
      t
        .replace(/^ {8}total(Count|Pages): -?\d+\n/gm, "")
        .replace(/^( {2}query:\n)( {4}pageSize: "20"\n)/m, '$1$2    withCount: "true"\n'),
    );
    expect(readFileSync(file, "utf8")).toContain('withCount: "true"');
    expect(await broken([file], "2026-01-15" as IsoDay)).toEqual([]);
  });
});

describe("v3 after its switch-off", () => {
  const v3 = () =>
    edited(CRAWL, "crawl-v3.yaml", (t) =>
      t
        .replaceAll(
          "path: /v5/organizations/amis-du-bac-a-sable/forms/",
          "path: /v3/organizations/amis-du-bac-a-sable/forms/",
        )
        .replace(/^ {6}data:( \[\])?$/gm, "      items:$1"),
    );

  it("flags a v3 call answered on or after the switch-off", async () => {
    const flagged = await broken([v3()], "2025-07-01" as IsoDay);
    expect(flagged[0]).toEqual({ id: 2, line: 39, rules: ["versions.v3-switched-off"] });
    expect(flagged.every((f) => f.rules.includes("versions.v3-switched-off"))).toBe(true);
  });

  it("passes the same calls before the switch-off", async () => {
    expect(await broken([v3()], RECORDED_AT)).toEqual([]);
  });
});

describe("Deprecation and Sunset recorded in a response", () => {
  /** The form cassette with these two headers added to its answer (interaction 2, line 39). */
  const announced = (name: string, deprecation: string, sunset: string) =>
    edited(FORM, name, (t) =>
      t.replace(
        /^( {4}cache-control: no-store\n)( {4}date: .*\n)(?![\s\S]*cache-control: no-store)/m,
        `$1$2    deprecation: "${deprecation}"\n    sunset: "${sunset}"\n`,
      ),
    );

  it("flags the drafts' `true`, a bare number and an HTTP-date of another form", async () => {
    for (const [deprecation, sunset] of [
      ["true", "Mon, 30 Jun 2025 00:00:00 GMT"],
      ["1751241600", "Mon, 30 Jun 2025 00:00:00 GMT"],
      ["@1751241600", "Monday, 30-Jun-25 00:00:00 GMT"],
      ["@1751241600", "Tue, 30 Jun 2025 00:00:00 GMT"],
    ]) {
      const file = announced("form-announced-bad.yaml", deprecation as string, sunset as string);
      expect(await broken([file], RECORDED_AT), `${deprecation} / ${sunset}`).toEqual([
        { id: 2, line: 39, rules: ["versions.deprecation-headers"] },
      ]);
    }
    const cli = await runCli(["lint", announced("form-true.yaml", "true", "Mon, 30 Jun 2025 00:00:00 GMT")]);
    expect(cli.code).toBe(1);
    expect(cli.stdout).toContain('Deprecation "true" is not a structured-field Date');
  });

  it("passes the forms the RFCs allow: a Date (with a parameter too) and an IMF-fixdate", async () => {
    for (const [deprecation, sunset] of [
      ["@1625011200", "Mon, 30 Jun 2025 00:00:00 GMT"],
      ["@1741996800;x=1", "Mon, 05 May 2025 00:00:00 GMT"],
    ]) {
      const file = announced("form-announced.yaml", deprecation as string, sunset as string);
      expect(readFileSync(file, "utf8")).toContain(`deprecation: "${deprecation}"`);
      expect(await broken([file], RECORDED_AT), deprecation).toEqual([]);
    }
  });
});

describe("bad input", () => {
  it("a file that is not a cassette is exit 2 with its file", async () => {
    const file = join(dir, "not-a-cassette.yaml");
    writeFileSync(file, "hello: world\n");
    const result = await runCli(["lint", file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(file);
  });

  it("no cassette is a usage error", async () => {
    expect((await runCli(["lint"])).code).toBe(2);
  });
});
