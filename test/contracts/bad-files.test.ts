import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadContract } from "../../contracts/index.js";
import { AssopayError, formatError } from "../../core/errors.js";
import { contractsDir } from "../../core/paths.js";
import { runCli } from "../support/run-cli.js";

const scratch = mkdtempSync(join(tmpdir(), "assopay-contract-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const goodTimeline = readFileSync(join(contractsDir(), "timeline.yaml"), "utf8");

function timelineFile(name: string, text: string): string {
  const file = join(scratch, name);
  writeFileSync(file, text);
  return file;
}

describe("a bad timeline file is a clear error naming the file and line, exit 2", () => {
  it.each([
    ["bad YAML", goodTimeline.replace("entries:", "entries: [oops"), /not valid YAML/, true],
    [
      "an unknown effect",
      goodTimeline.replace("effect: v3-switch-off", "effect: v4-switch-on"),
      /effect must be one of/,
      true,
    ],
    [
      "a date that is not a day",
      goodTimeline.replace("date: 2025-06-30", "date: 2025-06-31"),
      /date must match format "date"/,
      true,
    ],
    [
      "a step out of order",
      goodTimeline.replace("date: 2025-05-05", "date: 2025-01-05"),
      /count-fields-removed.*(comes before|is after the change itself)/,
      false,
    ],
    [
      "a missing field",
      goodTimeline.replace("    status: planned\n", ""),
      /status is required but missing/,
      true,
    ],
  ] as const)("%s", async (_, text, message, withLine) => {
    const file = timelineFile(`timeline-${Math.random().toString(36).slice(2)}.yaml`, text);
    const result = await runCli(["contracts", "--check", "--timeline", file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain(withLine ? `${file}:` : file);
    expect(result.stderr).toMatch(/^hint: /m);
  });

  it("a missing file", async () => {
    const result = await runCli(["contracts", "--timeline", join(scratch, "nope.yaml")]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/cannot read the timeline/);
  });

  it("points at the line of the offending entry", async () => {
    const file = timelineFile(
      "line.yaml",
      goodTimeline.replace("effect: v3-switch-off", "effect: v4-switch-on"),
    );
    const result = await runCli(["contracts", "--timeline", file]);
    const line = goodTimeline.split("\n").findIndex((l) => l.includes("effect: v3-switch-off")) + 1;
    expect(result.stderr).toContain(`${file}:${line}:`);
  });
});

describe("a bad schema file is a clear error naming the file", () => {
  const copy = (mutate: (dir: string) => void) => {
    const dir = mkdtempSync(join(scratch, "contracts-"));
    cpSync(contractsDir(), dir, { recursive: true });
    mutate(dir);
    return dir;
  };
  const failure = (dir: string): AssopayError => {
    try {
      loadContract({ dir });
    } catch (error) {
      if (error instanceof AssopayError) return error;
      throw error;
    }
    throw new Error("expected the contract not to load");
  };

  it("invalid JSON, with its line", () => {
    const dir = copy((d) =>
      writeFileSync(join(d, "schemas", "payer.schema.json"), '{\n  "type": "object",\n  oops\n}\n'),
    );
    const error = failure(dir);
    expect(error.code).toBe("bad-contract");
    expect(error.exitCode).toBe(2);
    expect(formatError(error)).toMatch(/payer\.schema\.json:3: schema file is not valid JSON/);
  });

  it("an unknown keyword (AJV strict mode)", () => {
    const dir = copy((d) => {
      const file = join(d, "schemas", "amount.schema.json");
      writeFileSync(
        file,
        readFileSync(file, "utf8").replace('"type": "object"', '"type": "object", "requierd": ["total"]'),
      );
    });
    expect(formatError(failure(dir))).toMatch(
      /amount\.schema\.json: schema "amount" does not compile: strict mode: unknown keyword: "requierd"/,
    );
  });

  it("a route naming a schema that does not exist", () => {
    const dir = copy((d) => {
      const file = join(d, "routes.yaml");
      writeFileSync(file, readFileSync(file, "utf8").replace("schema: partner }", "schema: partners }"));
    });
    expect(formatError(failure(dir))).toMatch(/route "v5\.partner-info" names an unknown schema "partners"/);
  });

  it("a listing naming entries of a route that is no listing", () => {
    const dir = copy((d) => {
      const file = join(d, "routes.yaml");
      writeFileSync(
        file,
        readFileSync(file, "utf8").replace(
          "{ route: v5.form-orders, at: order }",
          "{ route: v5.form-order, at: order }",
        ),
      );
    });
    expect(formatError(failure(dir))).toMatch(
      /route "v5\.form-items" names entries of "v5\.form-order", which is no listing[\s\S]*pagination\.names lists listing routes: v5\.form-items, /,
    );
  });
});
