import { createRequire } from "node:module";

const require = createRequire(new URL("../package.json", import.meta.url));

/** What one load run measured. */
export interface LoadResult {
  rps: number;
  /** Requests answered in the run. */
  total: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  bytesPerSec: number;
}

export interface LoadSpec {
  url: string;
  connections: number;
  durationSeconds: number;
  /** Paths to cycle through (default: the URL's own). */
  paths?: string[];
  /** Make every request unique (`?i=N`), so recorders record each one instead of replaying a tape. */
  unique?: boolean;
}

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  throughput: { average: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}

type Autocannon = (
  options: Record<string, unknown>,
  done: (error: Error | null, result: AutocannonResult) => void,
) => void;

/** Runs autocannon (keep-alive, the given connections) against a URL and returns its figures. */
export function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const autocannon = require("autocannon") as Autocannon;
  const base = new URL(spec.url);
  const paths = spec.paths ?? [`${base.pathname}${base.search}`];
  let counter = 0;
  const requests = paths.map((path) => ({
    method: "GET",
    path,
    ...(spec.unique
      ? {
          setupRequest: (request: { path: string }) => {
            counter += 1;
            return { ...request, path: `${path}${path.includes("?") ? "&" : "?"}i=${counter}` };
          },
        }
      : {}),
  }));
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: spec.url,
        connections: spec.connections,
        duration: spec.durationSeconds,
        pipelining: 1,
        requests,
      },
      (error, result) => {
        if (error) return reject(error);
        resolve({
          rps: result.requests.average,
          total: result.requests.total,
          p50: result.latency.p50,
          p99: result.latency.p99,
          errors: result.errors + result.timeouts,
          non2xx: result.non2xx,
          bytesPerSec: result.throughput.average,
        });
      },
    );
  });
}
