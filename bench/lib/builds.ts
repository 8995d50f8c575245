import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

/** Imports the module at `path` of a build (a copy of dist/, such as `.scratch/before`). */
export function fromBuild(dist: string, path: string) {
  return import(pathToFileURL(resolve(dist, path)).href);
}

/**
 * Runs `script` once per build and round, the builds in alternation, each run in a process of its own
 * with `--child DIST` (and `childArgs`), and prints the one line each child prints, labelled.
 */
export function alternateBuilds(
  script: string,
  dists: readonly string[],
  options: { rounds: number; childArgs: readonly string[]; label: string },
): void {
  if (dists.length === 0) {
    console.error(
      `usage: node --import tsx ${script} DIST [DIST ...] (copies of dist/, see the file's head)`,
    );
    process.exit(2);
  }
  for (let round = 1; round <= options.rounds; round++) {
    for (const dist of dists) {
      const args = ["--import", "tsx", script, "--child", ...options.childArgs, dist];
      const line = execFileSync(process.execPath, args, { encoding: "utf8" }).trim();
      console.log(`round ${round}  ${dist.padEnd(16)} ${options.label}: ${line}`);
    }
  }
}
