import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { runnableEntry } from "../../core/compiled.js";
import { packageRoot } from "../../core/paths.js";

/**
 * The arguments to `node` that run the `assopay` binary: `dist/cli/bin.js` (the installed entry point)
 * while dist/ was built from the sources as they are, else `--import tsx cli/bin.ts` (core/compiled.ts).
 * Through tsx, each child compiles the sources again: about 0.6 s of CPU more per child.
 */
export function cliNodeArgs(): string[] {
  const bin = runnableEntry(pathToFileURL(join(packageRoot(), "cli", "bin.ts")).href, "bin");
  return bin.tsx ? ["--import", "tsx", bin.file] : [bin.file];
}
