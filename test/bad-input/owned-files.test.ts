import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fileSha256, ownershipOf, WRITTEN_RECORD, writeOwnedFile } from "../../core/owned-file.js";
import { runCli } from "../support/run-cli.js";

const scratch = mkdtempSync(join(tmpdir(), "assopay-owned-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const PACKAGE = '{ "name": "my-sdk" }\n';
const CASSETTE = join("recordings", "public-form.yaml");

const verifyTo = (output: string, reporter: string, ...more: string[]) =>
  runCli(["verify", "--cassette", CASSETTE, "--reporter", reporter, "--output", output, ...more]);

describe("verify --output replaces only a report assopay wrote", () => {
  it("refuses a file it did not write (package.json): exit 2 before running, the file untouched", async () => {
    const file = join(scratch, "package.json");
    writeFileSync(file, PACKAGE);
    const run = await verifyTo(file, "json");
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `${file} exists and is not a report assopay wrote: it is kept, nothing was written`,
    );
    expect(run.stderr).toContain(
      "hint: choose another --output, move the file away, or add --force to replace it",
    );
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(readFileSync(file, "utf8")).toBe(PACKAGE);
  });

  it("replaces its own report, in any of its formats, and anything with --force", async () => {
    const file = join(scratch, "report.out");
    for (const reporter of ["json", "junit", "pretty", "json"]) {
      const run = await verifyTo(file, reporter);
      expect(run.code, run.stderr).not.toBe(2);
      expect(ownershipOf(file)).toBe("ours");
    }
    const theirs = join(scratch, "theirs.json");
    writeFileSync(theirs, PACKAGE);
    const forced = await verifyTo(theirs, "json", "--force");
    expect(forced.code, forced.stderr).not.toBe(2);
    expect(JSON.parse(readFileSync(theirs, "utf8")).format).toBe("assopay-report");
  });
});

describe("the one decision (core/owned-file.ts)", () => {
  it("absent, ours by the digest recorded when writing, modified, foreign whatever its first line", () => {
    const file = join(scratch, "x.txt");
    expect(ownershipOf(file)).toBe("absent");
    writeFileSync(file, "assopay verify: here\n");
    expect(ownershipOf(file)).toBe("foreign");
    writeOwnedFile(file, "assopay verify: here\n");
    expect(ownershipOf(file)).toBe("ours");
    expect(readFileSync(join(scratch, WRITTEN_RECORD), "utf8")).toContain(fileSha256(file));
    writeFileSync(file, PACKAGE);
    expect(ownershipOf(file)).toBe("modified");
    const hash = "9b1f3b1b0bfbd7b54d3b8b2a1c6ba6a4f8b3f3d0b0e0e5b6c4a3f1a6c7e9d2b1";
    expect(ownershipOf(file, { sha256: hash })).toBe("modified");
    expect(ownershipOf(file, { sha256: fileSha256(file) })).toBe("ours");
    expect(ownershipOf(scratch)).toBe("foreign");
  });
});

describe("--output decides by the digest recorded when writing, not by how the file begins", () => {
  it("a pretty report the user appended a line to is kept by the next verify --output", async () => {
    const file = join(scratch, "report.txt");
    const first = await verifyTo(file, "pretty");
    expect(first.code, first.stderr).not.toBe(2);
    appendFileSync(file, "my own note\n");
    const before = readFileSync(file, "utf8");
    const next = await verifyTo(file, "pretty");
    expect(next.code).toBe(2);
    expect(next.stderr).toContain(`${file} was written by assopay verify and has been modified since`);
    expect(readFileSync(file, "utf8")).toBe(before);
  });

  it("a user's todo.txt whose first line starts with 'assopay verify:' is not overwritten", async () => {
    const file = join(scratch, "todo.txt");
    const mine = "assopay verify: run it against staging\n- buy milk\n";
    writeFileSync(file, mine);
    const run = await verifyTo(file, "pretty");
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${file} exists and is not a report assopay wrote`);
    expect(readFileSync(file, "utf8")).toBe(mine);
  });
});
