import { Agent, createServer } from "node:http";
import httpProxy from "http-proxy";
import { loadContract } from "../../contracts/index.js";
import type { IsoDay } from "../../core/dates.js";
import { startServer } from "../../core/http/server.js";
import { startSandbox } from "../../sandbox/index.js";
import { allChecks } from "../../specs/index.js";
import { resolveOptions } from "../../specs/runner/options.js";
import { runVerify } from "../../specs/runner/run.js";
import { CHECK_GROUPS, exitCodeOf } from "../../specs/runner/types.js";
import type { BenchContext } from "../lib/context.js";
import type { Section } from "../lib/report.js";

const LATENCY_MS = 120;
const AT = "2025-04-01" as IsoDay;
const GOAL_SECONDS = 30;
/** One request at a time, as verify sent them before issue 47, then the default. */
const CONCURRENCIES = [1, 4] as const;

/** A front that forwards each request to `upstream` `LATENCY_MS` after it came, so answers it late. */
async function slowFront(upstream: string) {
  let requests = 0;
  // Requests in flight now, at most, and their sum over time (ms): the mean is that sum over the wall time.
  let inFlight = 0;
  let peak = 0;
  let busyMs = 0;
  const agent = new Agent({ keepAlive: true });
  const proxy = httpProxy.createProxyServer({ target: upstream, agent, changeOrigin: true });
  proxy.on("error", (_error, _req, res) => void res.destroy());
  const server = createServer((req, res) => {
    requests++;
    const started = Date.now();
    peak = Math.max(peak, ++inFlight);
    res.on("close", () => {
      inFlight--;
      busyMs += Date.now() - started;
    });
    setTimeout(() => proxy.web(req, res), LATENCY_MS);
  });
  const running = await startServer(server, { what: "a slow front" });
  return {
    url: running.url,
    figures: () => ({ requests, peak, busyMs }),
    close: async () => {
      await running.close();
      agent.destroy();
    },
  };
}

/**
 * verify's wall time against a provider in another region (issue 47): the sandbox (50 entries a form)
 * behind a front that answers every request 120 ms late, the whole run (every group but Pact) at
 * 2025-04-01 with provider states, in this process; how many requests it sent, and its wall time, one
 * request at a time and at the default --concurrency.
 */
export async function verifyLatencySuite(ctx: BenchContext): Promise<Section[]> {
  const contract = loadContract();
  const runs = [];
  for (const concurrency of CONCURRENCIES) {
    ctx.log(`verify at ${LATENCY_MS} ms of latency, --concurrency ${concurrency}`);
    const sandbox = await startSandbox({ port: 0, at: AT, entries: 50, contract, hooks: true });
    const front = await slowFront(sandbox.url);
    try {
      const c = sandbox.credentials;
      const options = resolveOptions({
        ...{ target: front.url, embedded: true, at: AT, reader: c.reader, admin: c.admin },
        ...{ organizationSlug: c.organizationSlug, formType: c.formType, formSlug: c.formSlug },
        ...{ stateUrl: `${front.url}/_states`, eventWaitMs: 2_000, notificationTimeoutMs: 3_000 },
        only: CHECK_GROUPS.filter((group) => group !== "pact"),
        concurrency,
      });
      const started = Date.now();
      const report = await runVerify(options, allChecks(), { contract });
      const run = {
        concurrency,
        wallMs: Date.now() - started,
        exit: exitCodeOf(report.summary),
        ...front.figures(),
      };
      runs.push(run);
      ctx.log(`  ${(run.wallMs / 1000).toFixed(1)} s, ${run.requests} requests, exit ${run.exit}`);
    } finally {
      await front.close();
      await sandbox.close();
    }
  }
  const seconds = (ms: number) => (ms / 1000).toFixed(1);
  const [one, many] = runs;
  return [
    {
      title: "Verify against a slow provider (issue 47)",
      table: {
        header: ["--concurrency", "wall time", "requests sent", "mean in flight", "peak in flight", "exit"],
        rows: runs.map((r) => [
          r.concurrency === 1
            ? "1 (one request at a time, as verify sent them before)"
            : `${r.concurrency} (the default)`,
          `${seconds(r.wallMs)} s`,
          r.requests.toLocaleString("en-US"),
          // The mean number of requests in flight: under --concurrency when requests wait on one another.
          (r.busyMs / r.wallMs).toFixed(2),
          String(r.peak),
          String(r.exit),
        ]),
      },
      targets: [
        {
          target: `at most ${GOAL_SECONDS} s at ${LATENCY_MS} ms of latency`,
          measured: `${seconds(many?.wallMs ?? Number.NaN)} s (${((many?.wallMs ?? Number.NaN) / (one?.wallMs ?? Number.NaN)).toFixed(2)}× the one-at-a-time run)`,
          met: (many?.wallMs ?? Number.POSITIVE_INFINITY) <= GOAL_SECONDS * 1000,
        },
      ],
      notes: [
        `The sandbox (50 entries a form, provider states) behind a front that answers every request ${LATENCY_MS} ms late (a provider in another region), every group but Pact at ${AT}, in the bench's process. The front counts the requests and how many were in flight (the mean: the time requests spent in flight over the wall time).`,
        "History of this figure (the requests it sent as checks were added, and why 30 s is out of reach): bench/history/performance-log.md, 2026-12-02.",
      ],
    },
  ];
}
