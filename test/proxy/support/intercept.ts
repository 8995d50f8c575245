import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type IncomingMessage } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { promisify } from "node:util";
import { afterEach } from "vitest";
import type { Command } from "../../../cli/command.js";
import { type RunningServer, startServer } from "../../../core/http/server.js";

const root = join(import.meta.dirname, "..", "..", "..");

/** The test fixtures: the hard-coded client and the socket guard. */
export const CLIENT = join(root, "test", "fixtures", "intercept", "client.mjs");
export const SOCKET_GUARD = join(root, "test", "fixtures", "intercept", "socket-guard.cjs");
/** The preload, from the source tree (the package's `./intercept` export once built). */
export const PRELOAD = join(root, "proxy", "intercept", "register.ts");

export interface FakeUpstream extends RunningServer {
  /** Every request it received: method, path, the Host header, the intercept header, the body. */
  readonly seen: { method: string; path: string; host: string; intercepted: unknown; body: string }[];
}

/** A stand-in for the live service on 127.0.0.1: answers each request with what it received. */
export async function startFakeUpstream(): Promise<FakeUpstream> {
  const seen: FakeUpstream["seen"] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString();
      const entry = {
        method: req.method ?? "",
        path: req.url ?? "",
        host: req.headers.host ?? "",
        intercepted: req.headers["x-assopay-intercepted-origin"],
        body,
      };
      seen.push(entry);
      const text = JSON.stringify({ answer: seen.length, method: entry.method, path: entry.path, body });
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
      res.end(text);
    });
  });
  const running = await startServer(server, { what: "fake upstream", port: 0 });
  return Object.assign(running, { seen });
}

/** A verb run in this process, as `assopay <verb>` would; its stdout is collected. */
export interface RunningVerb {
  /** Resolves with the first stdout line that is a JSON object. */
  json(): Promise<Record<string, string>>;
  stdout(): string;
  stop(): Promise<number>;
}

export function runVerb(
  command: Command,
  argv: string[],
  env: Record<string, string | undefined>,
): RunningVerb {
  let out = "";
  let wake: () => void = () => undefined;
  const stdout = new Writable({
    write(chunk, _encoding, done) {
      out += String(chunk);
      wake();
      done();
    },
  });
  const controller = new AbortController();
  const exit = command.run({
    argv,
    stdout,
    stderr: new Writable({ write: (_c, _e, d) => d() }),
    env,
    signal: controller.signal,
  });
  exit.catch(() => wake());
  const json = async () => {
    for (;;) {
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (line) return JSON.parse(line) as Record<string, string>;
      const failed = await Promise.race([
        exit.then(
          () => true,
          () => true,
        ),
        new Promise<false>((r) => {
          wake = () => r(false);
        }),
      ]);
      if (failed) throw new Error(`the verb ended before printing its variables: ${out}`);
    }
  };
  return {
    json,
    stdout: () => out,
    stop: async () => {
      controller.abort();
      return exit;
    },
  };
}

/** Runs a command (node, curl) to its end; rejects with its stderr when it fails. */
export async function run(
  file: string,
  args: string[],
  env: Record<string, string | undefined>,
): Promise<{ stdout: string; stderr: string }> {
  const clean = Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  return promisify(execFile)(file, args, { env: clean, timeout: 90_000 });
}

/** The environment with every proxy and intercept variable removed, as a base for the children. */
export function quietEnvironment(): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of Object.keys(env)) {
    if (
      /^(https?_proxy|all_proxy|no_proxy|node_options|node_extra_ca_certs|ssl_cert_file|requests_ca_bundle|assopay_)/i.test(
        name,
      )
    ) {
      delete env[name];
    }
  }
  return env;
}

/**
 * What one test sets up and the test file tears down after it, last first: scratch folders, fake
 * upstreams, and any other step given to `defer`. Call it at the top of a test file (it registers the
 * `afterEach`).
 */
export function perTest(prefix: string) {
  const steps: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const step of steps.splice(0).reverse()) await step();
  });
  const defer = (step: () => Promise<unknown>) => {
    steps.push(step);
  };
  return {
    defer,
    async scratch(): Promise<string> {
      const dir = await mkdtemp(join(tmpdir(), prefix));
      defer(() => rm(dir, { recursive: true, force: true }));
      return dir;
    },
    async upstream(): Promise<FakeUpstream> {
      const server = await startFakeUpstream();
      defer(() => server.close());
      return server;
    },
  };
}
