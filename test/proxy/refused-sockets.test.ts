import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../../core/paths.js";
import { cliNodeArgs } from "../support/cli-entry.js";
import { send } from "./support/http.js";
import { perTest, quietEnvironment, run } from "./support/intercept.js";

const { defer, scratch, upstream } = perTest("assopay-refused-");
const FIXTURES = join(packageRoot(), "test", "fixtures", "servers");

interface Verb {
  child: ChildProcess;
  url: string;
  port: string;
  output(): string;
  exited: Promise<number | NodeJS.Signals | null>;
}

/** `assopay VERB ARGS` (cli/bin.ts, the real binary) in a child process, once it says where it listens. */
function spawnVerb(verb: "record" | "replay", args: readonly string[]): Promise<Verb> {
  const child = spawn(process.execPath, [...cliNodeArgs(), verb, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env: quietEnvironment() as NodeJS.ProcessEnv,
  });
  let out = "";
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) =>
    child.once("exit", (code, signal) => resolve(code ?? signal)),
  );
  defer(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await exited;
  });
  return new Promise((resolve, reject) => {
    const seen = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/[^\s,]+)/.exec(out);
      if (match?.[1]) {
        const url = match[1];
        resolve({ child, url, port: new URL(url).port, output: () => out, exited });
      }
    };
    child.stdout?.on("data", seen);
    child.stderr?.on("data", seen);
    void exited.then((code) => reject(new Error(`${verb} exited with ${code}: ${out}`)));
  });
}

/** Every refused kind, each with resets, from curl, Python and Node; nothing here leaves loopback. */
async function attack(verb: Verb, intercepting: boolean): Promise<void> {
  const env = quietEnvironment();
  const kinds = intercepting ? ["connect", "upgrade", "tunnel"] : ["connect", "upgrade"];
  // curl through the server as HTTPS_PROXY would send it: CONNECT example.org:443, refused.
  await run("curl", ["--silent", "--max-time", "10", "-x", verb.url, "https://example.org/"], env).catch(
    () => undefined,
  );
  await run(
    "curl",
    ["--silent", "--max-time", "10", "-H", "Connection: Upgrade", "-H", "Upgrade: websocket", `${verb.url}/`],
    env,
  ).catch(() => undefined);
  for (const kind of kinds) {
    await run("python3", [join(FIXTURES, "reset-after.py"), "127.0.0.1", verb.port, kind, "4"], env);
    await run(process.execPath, [join(FIXTURES, "reset-after.mjs"), "127.0.0.1", verb.port, kind, "4"], env);
  }
}

async function stop(verb: Verb): Promise<number | NodeJS.Signals | null> {
  verb.child.kill("SIGTERM");
  return verb.exited;
}

describe("refused CONNECT and Upgrade with a reset cost the socket, never the server", () => {
  /** `assopay record` on a port of its own, in front of `upstream`, writing `cassette`. */
  const record = (upstream: string, cassette: string, extra: readonly string[]) =>
    spawnVerb("record", ["--upstream", upstream, "--cassette", cassette, "--port", "0", ...extra]);

  for (const intercepting of [false, true]) {
    const flags = (dir: string) =>
      intercepting ? ["--intercept", "api.helloasso.com", "--ca-dir", join(dir, "ca")] : [];
    const label = intercepting ? "with --intercept" : "without --intercept";

    it(`record ${label}: survives every reset, then records a good request`, async () => {
      const dir = await scratch();
      const service = await upstream();
      const cassette = join(dir, "session.yaml");
      const recorder = await record(service.url, cassette, flags(dir));
      await attack(recorder, intercepting);
      expect(recorder.child.exitCode).toBeNull();
      const good = await send(`${recorder.url}/v5/after-the-resets?n=1`);
      expect(good.status).toBe(200);
      expect(await stop(recorder)).toBe(0);
      expect(recorder.output()).not.toMatch(/ECONNRESET|EPIPE|Unhandled 'error'/);
      expect(await readFile(cassette, "utf8")).toContain("/v5/after-the-resets");
      expect(existsSync(`${cassette}.lock`)).toBe(false);
      // The refused requests reached neither the upstream nor the cassette.
      expect(service.seen.map((s) => s.path)).toEqual(["/v5/after-the-resets?n=1"]);
    });

    it(`replay ${label}: survives every reset, then serves a good request`, async () => {
      const dir = await scratch();
      const service = await upstream();
      const cassette = join(dir, "served.yaml");
      const recorder = await record(service.url, cassette, []);
      expect((await send(`${recorder.url}/v5/served?n=1`)).status).toBe(200);
      expect(await stop(recorder)).toBe(0);
      const replay = await spawnVerb("replay", ["--cassette", cassette, "--port", "0", ...flags(dir)]);
      await attack(replay, intercepting);
      expect(replay.child.exitCode).toBeNull();
      const good = await send(`${replay.url}/v5/served?n=1`);
      expect(good.status).toBe(200);
      expect(good.json()).toMatchObject({ path: "/v5/served?n=1" });
      expect(await stop(replay)).toBe(0);
      expect(replay.output()).not.toMatch(/ECONNRESET|EPIPE|Unhandled 'error'/);
    });
  }
});
