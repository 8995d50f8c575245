import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { distIsCurrent, runnableEntry, writeBuildStamp } from "../../core/compiled.js";

/** A project of its own: two sources, a test, dist/ with the worker's compiled copy, no stamp yet. */
function project(): string {
  const root = mkdtempSync(join(tmpdir(), "assopay-compiled-"));
  const files: Record<string, string> = {
    "tsconfig.json": "{}\n",
    "tsconfig.build.json": '{ "include": ["lib"] }\n',
    "lib/host.ts": "export const host = 1;\n",
    "lib/worker.ts": "export const worker = 1;\n",
    "lib/host.test.ts": "// a test: not built\n",
    "dist/lib/worker.js": "export const worker = 1;\n",
  };
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(root, file, ".."), { recursive: true });
    writeFileSync(join(root, file), text);
  }
  return root;
}

describe("runnableEntry: the compiled worker or child when dist/ matches the sources, else tsx", () => {
  let root = "";
  let host = "";
  beforeEach(() => {
    root = project();
    host = pathToFileURL(join(root, "lib", "host.ts")).href;
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("runs the source through tsx without a stamp, after a source changed, and without the compiled file", () => {
    expect(distIsCurrent(root)).toBe(false);
    expect(runnableEntry(host, "worker", root)).toEqual({ file: join(root, "lib", "worker.ts"), tsx: true });

    writeBuildStamp(root);
    writeFileSync(join(root, "lib", "host.ts"), "export const host = 2;\n");
    expect(distIsCurrent(root)).toBe(false);
    expect(runnableEntry(host, "worker", root).tsx).toBe(true);

    writeBuildStamp(root);
    writeFileSync(join(root, "tsconfig.json"), '{ "compilerOptions": { "target": "ES2020" } }\n');
    expect(runnableEntry(host, "worker", root).tsx).toBe(true);

    writeBuildStamp(root);
    rmSync(join(root, "dist", "lib", "worker.js"));
    expect(runnableEntry(host, "worker", root)).toEqual({ file: join(root, "lib", "worker.ts"), tsx: true });
  });

  it("runs dist/'s JavaScript once built from these sources; a test file or dist/ itself changing is no change", () => {
    writeBuildStamp(root);
    expect(distIsCurrent(root)).toBe(true);
    expect(runnableEntry(host, "worker", root)).toEqual({
      file: join(root, "dist", "lib", "worker.js"),
      tsx: false,
    });
    writeFileSync(join(root, "lib", "host.test.ts"), "// edited\n");
    writeFileSync(join(root, "dist", "lib", "other.js"), "\n");
    expect(distIsCurrent(root)).toBe(true);
  });

  it("from compiled JavaScript (the installed package), the .js beside the module, no stamp needed", () => {
    const compiledHost = pathToFileURL(join(root, "dist", "lib", "host.js")).href;
    expect(runnableEntry(compiledHost, "worker", root)).toEqual({
      file: join(root, "dist", "lib", "worker.js"),
      tsx: false,
    });
  });
});
