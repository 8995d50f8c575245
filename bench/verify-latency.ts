// verify's wall time against a provider in another region: the sandbox (50 entries a form) behind a
// front that answers every request 120 ms late, the whole run (every group but Pact) at 2025-04-01 with
// provider states; how many requests it sent, and its wall time, at each --concurrency given.
// Usage: node --import tsx bench/verify-latency.ts [--latency MS] [--concurrency N ...]
// Example: node --import tsx bench/verify-latency.ts --concurrency 1 --concurrency 4
// Measured 2026-12-02 (docs/benchmarks.md, "Verify against a slow provider"): 1,142 requests either
// way; --concurrency 1 142.5 s, --concurrency 4 51.1 s (0.36×), 2.76 requests in flight on average. The
// 30 s goal is not met: the checks run one after another, and a crawl's pages, and a listing's crawls
// (the completeness judge needs their order), wait for one another.
import { createServer } from "node:http";
import { parseArgs } from "node:util";
import { loadContract } from "../contracts/index.js";
import type { IsoDay } from "../core/dates.js";
import { startServer } from "../core/http/server.js";
import { startSandbox } from "../sandbox/index.js";
import { allChecks } from "../specs/index.js";
import { resolveOptions } from "../specs/runner/options.js";
import { runVerify } from "../specs/runner/run.js";
import { CHECK_GROUPS } from "../specs/runner/types.js";

const { values } = parseArgs({
  options: {
    latency: { type: "string", default: "120" },
    concurrency: { type: "string", multiple: true, default: ["1", "4"] },
  },
});
const latencyMs = Number(values.latency);
const AT = "2025-04-01" as IsoDay;
const contract = loadContract();

/** A front that forwards each request to `upstream` and answers `latencyMs` after the answer came. */
async function slowFront(upstream: string) {
  let requests = 0;
  // Requests in flight now, at most, and their sum over time (ms): the mean is that sum over the wall time.
  let inFlight = 0;
  let peak = 0;
  let busyMs = 0;
  const server = createServer((req, res) => {
    requests++;
    const started = Date.now();
    peak = Math.max(peak, ++inFlight);
    res.on("close", () => {
      inFlight--;
      busyMs += Date.now() - started;
    });
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers))
        if (name !== "host" && name !== "connection" && value !== undefined) headers[name] = String(value);
      const answer = await fetch(`${upstream}${req.url}`, {
        method: req.method ?? "GET",
        headers: { ...headers, "accept-encoding": "identity" },
        redirect: "manual",
        ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
      });
      const body = Buffer.from(await answer.arrayBuffer());
      const out: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (!["content-length", "transfer-encoding", "connection", "content-encoding"].includes(name))
          out[name] = value;
      });
      await new Promise((resolve) => setTimeout(resolve, latencyMs));
      res.writeHead(answer.status, out).end(body);
    })().catch(() => res.destroy());
  });
  const running = await startServer(server, { what: "a slow front" });
  const flight = () => ({ peak, busyMs });
  return { url: running.url, requests: () => requests, flight, close: () => running.close() };
}

for (const concurrency of values.concurrency.map(Number)) {
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
    const wallMs = Date.now() - started;
    const failed = report.outcomes.filter((o) => o.verdict === "fail" || o.verdict === "error");
    console.log(
      JSON.stringify({
        concurrency,
        latencyMs,
        wallSeconds: Number((wallMs / 1000).toFixed(1)),
        requests: front.requests(),
        // The mean number of requests in flight: under --concurrency when requests wait on one another.
        meanInFlight: Number((front.flight().busyMs / wallMs).toFixed(2)),
        peakInFlight: front.flight().peak,
        failed: failed.map((o) => o.id),
      }),
    );
  } finally {
    await front.close();
    await sandbox.close();
  }
}
process.exit(0);
