// `npm start`, `npm run assopay` and `npm run contracts`: the command line from dist/ when dist/ was built
// from the sources as they are (`npm ci` builds it), else from the sources through tsx: the choice
// `runnableEntry` of core/compiled.ts makes for the workers and children. Never stale code, and no compile
// of the sources on each start while the build is current (`npm start`: about 3.0 s through tsx, 2.1 s
// from dist/).
import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

const source = new URL("../cli/bin.ts", import.meta.url);
const compiled = new URL("../dist/core/compiled.js", import.meta.url);
const entry = existsSync(fileURLToPath(compiled))
  ? (await import(compiled.href)).runnableEntry(source.href, "bin")
  : { file: fileURLToPath(source), tsx: true };
if (entry.tsx) (await import("tsx/esm/api")).register();
await import(pathToFileURL(entry.file).href);
