// `npm start`, `npm run assopay` and `npm run contracts`: the command line from dist/ when dist/ was built
// from the sources as they are (`npm ci` builds it; core/compiled.ts keeps the digest), else from the
// sources through tsx. Never stale code; and no compile of the sources on each start while the build is
// current (`npm start`: about 3.0 s through tsx, 2.1 s from dist/).
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = new URL("../", import.meta.url);
const compiled = new URL("dist/core/compiled.js", root);
const current =
  existsSync(fileURLToPath(compiled)) &&
  (await import(compiled.href)).distIsCurrent(fileURLToPath(root).replace(/\/$/, ""));
if (current) {
  await import(new URL("dist/cli/bin.js", root).href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import(new URL("cli/bin.ts", root).href);
}
