import { readFileSync } from "node:fs";
import { join } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The seconds each test file took in a whole run of the suite (`test/file-seconds.json`, written by
 * `node scripts/test-durations.mjs REPORT.json --write` from vitest's JSON report).
 */
export const FILE_SECONDS = "test/file-seconds.json";

/** `test/file-seconds.json` as a map from the file's path (from the checkout's root) to its seconds. */
export function readFileSeconds(root: string): ReadonlyMap<string, number> {
  const parsed = JSON.parse(readFileSync(join(root, FILE_SECONDS), "utf8")) as Record<string, number>;
  return new Map(Object.entries(parsed));
}

/**
 * Runs the slowest files first. Each fork takes the next file as it finishes one, and vitest waits for a
 * project's last file before it starts the next project, so a long file that starts late runs alone while
 * the other core idles. vitest's own order does not know the durations in a fresh checkout (CI): it runs
 * the largest files first, and the fault matrices are among the smallest files and the slowest (each
 * 2 minutes, they were the last to start and ran alone at the end). The seconds come from
 * `test/file-seconds.json`, or vitest's cache of the last run for a file not in it; a file in neither
 * comes last, in vitest's order.
 */
export class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const seconds = readFileSeconds(root);
    const base = await super.sort(files);
    const weight = (spec: TestSpecification): number => {
      const path = spec.moduleId.startsWith(`${root}/`)
        ? spec.moduleId.slice(root.length + 1)
        : spec.moduleId;
      const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${path}`)?.duration;
      return seconds.get(path) ?? (cached === undefined ? 0 : cached / 1000);
    };
    const weights = new Map(base.map((spec) => [spec, weight(spec)]));
    // Array.prototype.sort is stable: equal weights keep vitest's order.
    return [...base].sort((a, b) => (weights.get(b) ?? 0) - (weights.get(a) ?? 0));
  }
}
