// assopay record as the suites drive it (recording, recorder-decision, and the cassettes of replay and
// cassette-load): its arguments, the wait for its cassette, and the systems it is measured beside.
import { stat } from "node:fs/promises";
import { Agent, request } from "node:http";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { journalPaths } from "../../proxy/record/journal.js";
import { RECORDING_SUFFIX } from "../../proxy/record/plan.js";
import { randomPort } from "../systems/listen.js";
import type { BenchContext, ChildSpec } from "./context.js";
import type { Contender } from "./rounds.js";

export const PATH = "/v5/organizations/bench/items?pageSize=20";

/** The baseline of the recording rounds. */
export const BARE = "http-proxy (bare, keep-alive)";
export const PEERS = {
  talkback: "talkback 4.2 (record)",
  mockttp: "mockttp 4.6 (pass-through + body hook)",
  wiremock: "WireMock 3.13 (record)",
} as const;

/** A system to measure: its name, how to start it, and for assopay record the cassette it writes. */
export type System = readonly [name: string, spec: ChildSpec, cassette?: string];

/**
 * Starts the systems at once, each a contender of the rounds on `PATH`; one that cannot run here is left
 * out, and `skipped` says why.
 */
export async function startContenders(
  ctx: BenchContext,
  skipped: string[],
  systems: readonly System[],
): Promise<Contender[]> {
  const started = await Promise.all(
    systems.map(async ([name, spec, cassette]): Promise<Contender | undefined> => {
      try {
        const child = await ctx.start(spec);
        return {
          name,
          url: `${child.url}${PATH}`,
          pid: child.pid,
          ...(cassette === undefined ? {} : { settle: () => cassetteCaughtUp(cassette) }),
        };
      } catch (error) {
        const why = (error as Error).message.split("\n")[0];
        skipped.push(`${name} could not run here: ${why}`);
        ctx.log(`  ${name}: skipped (${why})`);
        return undefined;
      }
    }),
  );
  return started.filter((c) => c !== undefined);
}

/** The recording peers on `up`, their tapes and stubs in the scratch folder. */
export function peers(ctx: BenchContext, up: string): System[] {
  const tapes = join(ctx.scratch, "talkback");
  return [
    [PEERS.talkback, ctx.system("talkback", ["--mode", "record", "--upstream", up, "--tapes", tapes])],
    [PEERS.mockttp, ctx.system("mockttp", ["--upstream", up])],
    [PEERS.wiremock, wiremock(join(ctx.scratch, "wiremock"), up)],
  ];
}

/** A peer installed in bench/node_modules: the path of `file` in package `name`. */
export const peerFile = (name: string, ...file: string[]) =>
  join(dirname(createRequire(import.meta.url).resolve(`${name}/package.json`)), ...file);

/**
 * WireMock on the machine's Java (17): recording everything through its proxy of `upstream` into
 * `root`, or without `upstream` serving the stubs recorded there.
 */
export function wiremock(root: string, upstream?: string): ChildSpec {
  const port = randomPort();
  const jar = peerFile("wiremock", "build", "wiremock-standalone-3.13.2.jar");
  const record = upstream === undefined ? [] : ["--proxy-all", upstream, "--record-mappings"];
  return {
    command: "java",
    args: [
      ...["-jar", jar, "--port", String(port), "--bind-address", "127.0.0.1"],
      ...["--root-dir", root, "--disable-banner", ...record],
    ],
    url: `http://127.0.0.1:${port}`,
    urlPattern: /port:\s+\d+|started/i,
    startTimeoutMs: 90_000,
  };
}

/**
 * A `--max-cassette-bytes` no bench round reaches: rounds record hundreds of megabytes, past the default
 * bound (256 MiB), after which a recorder answers 507.
 */
const NO_CASSETTE_BOUND = String(64 * 1024 ** 3);

/**
 * `assopay record` on `upstream` into `cassette`, in mode `all` (the cassette is written as
 * `<cassette>.recording` until the recorder stops).
 */
export function recordArgs(upstream: string, cassette: string): string[] {
  return [
    "record",
    "--upstream",
    upstream,
    "--cassette",
    cassette,
    "--port",
    "0",
    "--mode",
    "all",
    "--max-cassette-bytes",
    NO_CASSETTE_BOUND,
    "--quiet",
  ];
}

async function pending(file: string): Promise<number> {
  try {
    return (await stat(file)).size;
  } catch {
    return 0;
  }
}

/**
 * Waits until assopay record has turned everything it journaled into YAML (its journal is emptied then,
 * and one sealed at its mark deleted) and returns how long that took, in ms: the time from the end of a
 * burst to a complete cassette. Under load the recorder answers first and writes the cassette with the
 * CPU time left over.
 */
export async function cassetteCaughtUp(cassette: string, timeoutMs = 300_000): Promise<number> {
  const started = performance.now();
  for (;;) {
    const sizes = await Promise.all(journalPaths(`${cassette}${RECORDING_SUFFIX}`).map(pending));
    if (sizes.every((size) => size === 0)) return performance.now() - started;
    if (performance.now() - started > timeoutMs) {
      throw new Error(`${cassette}: the recorder had not caught up after ${timeoutMs / 1000} s`);
    }
    await sleep(10);
  }
}

/**
 * Sends `count` distinct GETs of `PATH` (`&i=1..count`) to `base` from `concurrency` keep-alive clients,
 * each sending its next request once its last response has ended.
 */
export async function sendDistinct(base: string, count: number, concurrency = 32): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const get = (i: number) =>
    new Promise<void>((done, fail) => {
      request(`${base}${PATH}&i=${i}`, { agent }, (res) => {
        res.resume();
        res.on("error", fail);
        res.on("end", () =>
          (res.statusCode ?? 0) < 300 ? done() : fail(new Error(`request ${i} answered ${res.statusCode}`)),
        );
      })
        .on("error", fail)
        .end();
    });
  let next = 1;
  try {
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let i = next++; i <= count; i = next++) await get(i);
      }),
    );
  } finally {
    agent.destroy();
  }
}

/** What loading a cassette took, as bench/systems/loaded.ts reports it. */
export interface Loaded {
  interactions: number;
  ms: number;
  /** The heap after loading (after a collection), and how much it grew while loading. */
  heapMb: number;
  heapGrewMb: number;
  /** Buffers (a replay's held response bodies). */
  externalMb: number;
  rssMb: number;
  maxRssKb: number;
}

/**
 * Loads `cassette` in a process of its own with the build's reader (`loadCassette`), or with `replay`
 * starts a replay of it (`startReplay`), and returns what that took.
 */
export function loaded(ctx: BenchContext, cassette: string, replay = false): Promise<Loaded> {
  const index = join(ctx.root, "dist", "proxy", "index.js");
  const { command, args } = ctx.system("loaded", [index, cassette, ...(replay ? ["--replay"] : [])]);
  return ctx.figures({ command, args: ["--expose-gc", ...args] }, "LOADED");
}

/**
 * Records `count` distinct exchanges through `assopay record` into a cassette, then stops the recorder.
 * Unbounded: 100,000 exchanges of 2 KB make a cassette past the default bound (256 MiB).
 */
export async function recordCassette(
  ctx: BenchContext,
  upstream: string,
  cassette: string,
  count: number,
): Promise<void> {
  const recorder = await ctx.start(ctx.assopay(recordArgs(upstream, cassette)));
  await sendDistinct(recorder.url, count);
  await recorder.close();
}
