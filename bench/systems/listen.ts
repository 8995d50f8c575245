import { spawn } from "node:child_process";
import type { Server } from "node:http";
import { startServer } from "../../core/http/server.js";

/** Listens on 127.0.0.1 at a free port and prints `READY <url>`, the line the bench waits for. */
export async function listenAndAnnounce(server: Server, port = 0): Promise<string> {
  const { url } = await startServer(server, { what: "bench system", port });
  process.stdout.write(`READY ${url}\n`);
  return url;
}

/** Closes on SIGTERM/SIGINT. */
export function closeOnSignal(close: () => unknown): void {
  const stop = () => {
    Promise.resolve(close()).finally(() => process.exit(0));
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

/** A port for a peer that cannot be given port 0 and say which it got. */
export const randomPort = () => 20_000 + Math.floor(Math.random() * 20_000);

/**
 * Runs a peer's server in a child process (Prism, WireMock), prints `READY` with its `port` once its
 * output matches `ready`, and stops it on SIGTERM/SIGINT; should it exit, so does this process.
 */
export function serveFromChild(
  name: string,
  command: string,
  args: string[],
  port: number,
  ready: RegExp,
): void {
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  let announced = false;
  const onData = (chunk: Buffer) => {
    // The tail only: Prism logs every request.
    output = (output + chunk.toString()).slice(-4000);
    if (!announced && ready.test(output)) {
      announced = true;
      process.stdout.write(`READY http://127.0.0.1:${port}\n`);
    }
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  child.once("exit", (code) => {
    process.stderr.write(`${name} exited ${code}\n${output.slice(-1000)}`);
    process.exit(1);
  });
  closeOnSignal(() => child.kill("SIGTERM"));
}
