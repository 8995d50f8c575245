import { execFile } from "node:child_process";
import { readdirSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { promisify } from "node:util";
import { main } from "../../cli/main.js";
import { sharedContractLoader } from "../support/run-cli.js";
import { captureStream } from "../support/streams.js";

const run = promisify(execFile);

/** The port each serving verb takes when the example gives none. */
const DEFAULT_PORTS: Record<string, number> = { sandbox: 4545, record: 8470, replay: 8471 };
const SERVING = new Set(Object.keys(DEFAULT_PORTS));

/** What one block of examples shares: its folder, and the servers its lines started (doc port → real). */
export interface BlockState {
  work: string;
  ports: Map<number, number>;
  stops: (() => Promise<number>)[];
}

export interface LineResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** `127.0.0.1:4545` as the port the test's own server took for it. */
function withPorts(word: string, ports: Map<number, number>): string {
  return word.replace(/127\.0\.0\.1:(\d+)/g, (all, port: string) => {
    const real = ports.get(Number(port));
    return real === undefined ? all : `127.0.0.1:${real}`;
  });
}

/** A relative path of the example, read from (or written to) the block's folder; a `*` is expanded. */
function withPaths(word: string, work: string): string[] {
  if (word.startsWith("-") || word.includes("://") || isAbsolute(word)) return [word];
  if (!word.includes("/") && !/\.(ya?ml|json|xml|html)$/.test(word)) return [word];
  const path = resolve(work, word);
  if (!word.includes("*")) return [path];
  const pattern = new RegExp(`^${path.split("/").pop()?.replace(/\./g, "\\.").replace(/\*/g, ".*")}$`);
  return readdirSync(dirname(path))
    .filter((name) => pattern.test(name))
    .sort()
    .map((name) => join(dirname(path), name));
}

/** The doc ports a line talks to (`http://127.0.0.1:PORT`). */
export function portsUsed(words: readonly string[]): number[] {
  return words.flatMap((w) => [...w.matchAll(/127\.0\.0\.1:(\d+)/g)].map((m) => Number(m[1])));
}

/**
 * Runs `assopay ARGS` in this process. A serving verb gets `--port 0` in place of the example's port
 * (the test runs beside other tests), and resolves once it listens, its port noted in the block's map;
 * any other verb resolves with its exit code.
 */
export async function runAssopay(args: readonly string[], state: BlockState): Promise<LineResult> {
  const [verb = ""] = args;
  const argv = args.flatMap((w) => withPaths(withPorts(w, state.ports), state.work));
  let docPort = DEFAULT_PORTS[verb];
  const portAt = argv.indexOf("--port");
  if (SERVING.has(verb) && !argv.includes("--list-faults")) {
    if (portAt >= 0) {
      docPort = Number(argv[portAt + 1]);
      argv.splice(portAt, 2);
    }
    argv.push("--port", "0");
  }
  const stdout = captureStream();
  const stderr = captureStream();
  const controller = new AbortController();
  const running = main(argv, {
    stdout: stdout.stream,
    stderr: stderr.stream,
    env: { ASSOPAY_CA_DIR: join(state.work, "ca") },
    signal: controller.signal,
    loadContract: sharedContractLoader,
  });
  if (!SERVING.has(verb) || argv.includes("--list-faults")) {
    return { code: await running, stdout: stdout.text(), stderr: stderr.text() };
  }
  // Until the server says where it listens, or the verb ends (no deadline: a loaded machine starts late).
  for (;;) {
    const seen = /http:\/\/127\.0\.0\.1:(\d+)/.exec(`${stdout.text()}${stderr.text()}`);
    if (seen) {
      if (docPort !== undefined && docPort !== 0) state.ports.set(docPort, Number(seen[1]));
      state.stops.push(() => {
        controller.abort();
        return running;
      });
      return { code: 0, stdout: stdout.text(), stderr: stderr.text() };
    }
    const done = await Promise.race([running, new Promise((r) => setTimeout(() => r(undefined), 50))]);
    if (typeof done === "number") return { code: done, stdout: stdout.text(), stderr: stderr.text() };
  }
}

/** Runs `curl ARGS` with the block's ports. */
export async function runCurl(args: readonly string[], state: BlockState): Promise<LineResult> {
  try {
    const { stdout, stderr } = await run(
      "curl",
      args.map((w) => withPorts(w, state.ports)),
      { timeout: 300_000 },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === "number" ? e.code : 1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

/** Writes what the example redirects (`> drift.xml`) into the block's folder. */
export function redirectTo(file: string, text: string, work: string): void {
  writeFileSync(resolve(work, file), text);
}
