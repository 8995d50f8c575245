import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AssopayError } from "../../core/errors.js";
import { readInputText } from "../../core/input-file.js";

const folder = mkdtempSync(join(tmpdir(), "assopay-input-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const hintFor = (what: string) => {
  try {
    readInputText(folder, "bad-input", what);
  } catch (error) {
    expect(error).toBeInstanceOf(AssopayError);
    return (error as AssopayError).hint;
  }
  throw new Error("a folder was read as a file");
};

describe("a folder given where an input file was due", () => {
  it("is named once as a file in the hint, whether or not the input's name already says file", () => {
    expect(hintFor("cassette")).toBe("pass a cassette file, not a folder");
    expect(hintFor("HAR file")).toBe("pass a HAR file, not a folder");
    expect(hintFor("sandbox data file")).toBe("pass a sandbox data file, not a folder");
  });
});
