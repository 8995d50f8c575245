import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { median } from "./stats.js";

/**
 * The recording worker's pipeline alone, in a process of its own (bench/worker-pipeline.ts): the median
 * CPU time, in µs, to decode, redact, serialise and append one captured exchange with a `size`-byte JSON
 * body. What the recorder's extra CPU over the forwarding ceiling is compared with: the rest is transport.
 */
export async function pipelineCostUs(root: string, size: number, count: number): Promise<number> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      "--import",
      "tsx",
      join(root, "bench", "worker-pipeline.ts"),
      "--size",
      String(size),
      "--count",
      String(count),
      "--rounds",
      "3",
      "--json",
    ],
    { cwd: root, maxBuffer: 1024 * 1024 },
  );
  const { perExchangeUs } = JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as {
    perExchangeUs?: number[];
  };
  return median(perExchangeUs ?? []);
}
