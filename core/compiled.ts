import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { packageRoot } from "./paths.js";

/**
 * Where a worker thread or a child process of assopay finds its code. The built package runs the `.js`
 * beside the module that starts it. Run from the TypeScript sources (the tests, `npm run assopay`), it
 * takes the compiled copy in `dist/` when `dist/` was built from exactly these sources (a digest written
 * by `npm run build`), and the source through tsx otherwise: never stale code, and no second compile of
 * the sources in every worker and child when the build is current.
 */
export interface RunnableEntry {
  /** The absolute path of the file to run. */
  readonly file: string;
  /** Whether it is TypeScript, to be loaded through tsx. */
  readonly tsx: boolean;
}

/** The digest of the sources `dist/` was built from, written by `npm run build` (scripts/stamp-dist.mjs). */
export const BUILD_STAMP = ".sources-digest";

const TSCONFIGS = ["tsconfig.json", "tsconfig.build.json"] as const;

/** The TypeScript files `npm run build` compiles: the folders of tsconfig.build.json, tests left out. */
function builtSources(root: string): string[] {
  const build = JSON.parse(readFileSync(join(root, "tsconfig.build.json"), "utf8")) as { include?: string[] };
  return (build.include ?? [])
    .flatMap((folder) =>
      readdirSync(join(root, folder), { withFileTypes: true, recursive: true })
        .filter((e) => e.isFile() && e.name.endsWith(".ts") && !e.name.endsWith(".test.ts"))
        .map((e) => relative(root, join(e.parentPath, e.name))),
    )
    .sort();
}

/**
 * A digest of everything the build reads: each built source (path and bytes) and the two tsconfig files.
 * About 10 ms for the project's 1.2 MB of sources.
 */
export function sourcesDigest(root: string = packageRoot()): string {
  const hash = createHash("sha256");
  for (const file of [...TSCONFIGS, ...builtSources(root)]) {
    hash.update(`\0${file}\0`);
    hash.update(readFileSync(join(root, file)));
  }
  return hash.digest("hex");
}

/** Records that `dist/` now holds the build of the current sources (run after `tsc`, by `npm run build`). */
export function writeBuildStamp(root: string = packageRoot()): void {
  writeFileSync(join(root, "dist", BUILD_STAMP), `${sourcesDigest(root)}\n`);
}

/** Whether `dist/` was built from the sources as they are now (no stamp, an older build: no). */
export function distIsCurrent(root: string = packageRoot()): boolean {
  const stamp = join(root, "dist", BUILD_STAMP);
  return existsSync(stamp) && readFileSync(stamp, "utf8").trim() === sourcesDigest(root);
}

/**
 * The entry `name` (a module in the folder of `moduleUrl`, without its extension) as it should be run.
 *
 * @example
 * runnableEntry(import.meta.url, "worker"); // { file: ".../dist/proxy/record/worker.js", tsx: false }
 */
export function runnableEntry(moduleUrl: string, name: string, projectRoot?: string): RunnableEntry {
  if (!moduleUrl.endsWith(".ts"))
    return { file: fileURLToPath(new URL(`./${name}.js`, moduleUrl)), tsx: false };
  const root = projectRoot ?? packageRoot();
  const source = fileURLToPath(new URL(`./${name}.ts`, moduleUrl));
  const compiled = join(root, "dist", relative(root, source).replace(/\.ts$/, ".js"));
  return existsSync(compiled) && distIsCurrent(root)
    ? { file: compiled, tsx: false }
    : { file: source, tsx: true };
}
