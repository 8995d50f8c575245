import { copyFileSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getHeapStatistics } from "node:v8";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_MAX_DOCUMENT_BYTES, largestParsableDocument } from "../../contracts/drift/run.js";
import { packageRoot } from "../../core/paths.js";
import { runCli } from "../support/run-cli.js";

const REFERENCE = join(packageRoot(), "contracts", "reference", "openapi-v5.json");

describe("drift refuses a document too large to parse, before reading it (docs/bad-inputs.md)", () => {
  const dir = mkdtempSync(join(tmpdir(), "assopay-drift-size-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("refuses a 300 MB document with its size and the flag that raises the bound, exit 2", async () => {
    // A sparse file: 300 MB on paper, no disk blocks, created at once. Reading it would abort V8.
    const huge = join(dir, "huge.json");
    writeFileSync(huge, "");
    truncateSync(huge, 300 * 1024 * 1024);
    const result = await runCli(["drift", "--openapi", huge]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `error[bad-input]: ${huge}: ${huge} is 314572800 bytes, more than the ${DEFAULT_MAX_DOCUMENT_BYTES} bytes drift reads`,
    );
    expect(result.stderr).toContain("hint: check that this is the provider's OpenAPI document");
    expect(result.stderr).toContain("--max-document-bytes 314572800");
    // The hint never names a bound this process could not hold: past it, it asks for a larger heap too.
    if (314572800 > largestParsableDocument())
      expect(result.stderr).toContain("NODE_OPTIONS=--max-old-space-size=");
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });

  it("accepts no --max-document-bytes past what its heap can parse (314572877 used to end in V8's abort)", async () => {
    const largest = largestParsableDocument();
    expect(largest).toBeLessThan(getHeapStatistics().heap_size_limit / 20);
    const copy = join(dir, "small.json");
    copyFileSync(REFERENCE, copy);
    for (const value of [String(largest + 1), "314572877"]) {
      if (Number(value) <= largest) continue;
      const result = await runCli(["drift", "--openapi", copy, "--max-document-bytes", value]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(
        `--max-document-bytes ${value} is more than this process can parse (${largest} bytes`,
      );
      expect(result.stderr).toContain("NODE_OPTIONS=--max-old-space-size=");
    }
    const at = await runCli([
      "drift",
      "--openapi",
      copy,
      "--since",
      REFERENCE,
      "--max-document-bytes",
      String(largest),
    ]);
    expect(at.code, at.stderr).toBe(0);
  });

  it("reads a document within the bound, and one over a lowered bound once the flag raises it", async () => {
    const copy = join(dir, "openapi-v5.json");
    copyFileSync(REFERENCE, copy);
    const refused = await runCli([
      "drift",
      "--openapi",
      copy,
      "--since",
      copy,
      "--max-document-bytes",
      "1000",
    ]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("more than the 1000 bytes drift reads");
    const read = await runCli(["drift", "--openapi", copy, "--since", REFERENCE]);
    expect(read.code, read.stderr).toBe(0);
    const raised = await runCli([
      "drift",
      "--openapi",
      copy,
      "--since",
      REFERENCE,
      "--max-document-bytes",
      String(DEFAULT_MAX_DOCUMENT_BYTES * 2),
    ]);
    expect(raised.code, raised.stderr).toBe(0);
    const bad = await runCli(["drift", "--openapi", copy, "--max-document-bytes", "lots"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--max-document-bytes must be a whole number above 0, got "lots"');
  });
});
