import { spawn } from "node:child_process";
import { copyFile, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../cli/main.js";
import { packageRoot } from "../../core/paths.js";
import { loadCassette } from "../../proxy/cassette/reader.js";
import type { ProxyEvent } from "../../proxy/events.js";
import { startRecorder } from "../../proxy/record/server.js";
import { send, tempDir } from "./support/http.js";
import { spawnRecorder } from "./support/recorder-process.js";

/** An upstream that answers `/n` with `{"n":…}`, and `/slow` the same after `ms` milliseconds. */
async function upstreamOnLoopback(ms: number): Promise<{ url: string; close(): Promise<void> }> {
  let n = 0;
  const server: Server = createServer((req, res) => {
    const body = JSON.stringify({ n: ++n, path: req.url });
    const answer = () => res.writeHead(200, { "content-type": "application/json" }).end(body);
    if (req.url === "/slow") setTimeout(answer, ms);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Runs `assopay record ARGS` in this process; resolves with its exit code and what it printed. */
async function record(args: string[]): Promise<{ code: number; stderr: string }> {
  const stderr = new PassThrough();
  let text = "";
  stderr.on("data", (c: Buffer) => {
    text += c.toString();
  });
  const code = await main(["record", ...args], {
    stdout: new PassThrough(),
    stderr,
    env: {},
    signal: AbortSignal.abort(),
  });
  return { code, stderr: text };
}

/** A process id that no longer runs. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""]);
  await new Promise((resolve) => child.once("exit", resolve));
  return child.pid as number;
}

describe("recording safety", () => {
  let upstream: Awaited<ReturnType<typeof upstreamOnLoopback>>;
  let temp: Awaited<ReturnType<typeof tempDir>>;

  beforeAll(async () => {
    upstream = await upstreamOnLoopback(1500);
    temp = await tempDir();
  });

  afterAll(async () => {
    await upstream.close();
    await temp.remove();
  });

  it("repeated SIGTERM and SIGINT during the drain still finish it: the exchange in flight is written, the lock released", async () => {
    const cassette = temp.file("drain.yaml");
    const recorder = await spawnRecorder(["--upstream", upstream.url, "--cassette", cassette, "--port", "0"]);
    const slow = send(`${recorder.url}/slow`);
    await new Promise((r) => setTimeout(r, 300));
    for (const signal of ["SIGTERM", "SIGTERM", "SIGINT", "SIGTERM"] as const) {
      recorder.child.kill(signal);
      await new Promise((r) => setTimeout(r, 100));
    }
    const reply = await slow;
    expect(reply.status).toBe(200);
    expect(await recorder.exited).toBe(0);
    expect(recorder.output()).toContain("still finishing");
    const loaded = await loadCassette(cassette);
    expect(loaded.interactions.map((i) => i.request.path)).toEqual(["/slow"]);
    expect((await readdir(temp.dir)).filter((n) => n.startsWith("drain.yaml."))).toEqual([]);
  });

  it("takes over a lock whose process no longer runs, and says so", async () => {
    const cassette = temp.file("stale.yaml");
    const pid = await deadPid();
    await writeFile(`${cassette}.lock`, `${pid}\n`);
    const events: ProxyEvent[] = [];
    const recorder = await startRecorder({
      upstream: upstream.url,
      cassette,
      onEvent: (e) => events.push(e),
    });
    await send(`${recorder.url}/n`);
    expect((await recorder.close()).recorded).toBe(1);
    expect(events.map((e) => e.message)).toContain(
      `took over the stale lock ${cassette}.lock: process ${pid}, which held it, no longer runs`,
    );
    await expect(stat(`${cassette}.lock`)).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("refuses a lock whose process runs", async () => {
    const cassette = temp.file("held.yaml");
    await writeFile(`${cassette}.lock`, `${process.ppid}\n`);
    await expect(startRecorder({ upstream: upstream.url, cassette })).rejects.toMatchObject({
      code: "conflict",
    });
    expect(await readFile(`${cassette}.lock`, "utf8")).toBe(`${process.ppid}\n`);
  });

  it("--mode all renames the new recording over the cassette and keeps --keep earlier versions", async () => {
    const cassette = temp.file("versions.yaml");
    const texts: Buffer[] = [];
    for (let run = 0; run < 4; run++) {
      const recorder = await startRecorder({ upstream: upstream.url, cassette, mode: "all", keep: 2 });
      await send(`${recorder.url}/n`);
      await recorder.close();
      texts.push(await readFile(cassette));
    }
    const versions = (await readdir(temp.dir)).filter((n) => n.startsWith("versions.yaml.")).sort();
    expect(versions).toHaveLength(2);
    expect(versions.every((n) => /^versions\.yaml\.previous-\d{8}T\d{9}Z$/.test(n))).toBe(true);
    // The newest version is the cassette the last run replaced; the one before, the run before.
    expect((await readFile(join(temp.dir, versions[1] as string))).equals(texts[2] as Buffer)).toBe(true);
    expect((await readFile(join(temp.dir, versions[0] as string))).equals(texts[1] as Buffer)).toBe(true);
    expect((await loadCassette(cassette)).interactions).toHaveLength(1);
  });

  it("--mode all with no traffic, run twice, leaves the recording as it was", async () => {
    const cassette = temp.file("idle.yaml");
    const first = await startRecorder({ upstream: upstream.url, cassette });
    await send(`${first.url}/n`);
    await first.close();
    const original = await readFile(cassette);
    for (let run = 0; run < 2; run++)
      await (await startRecorder({ upstream: upstream.url, cassette, mode: "all" })).close();
    expect((await readFile(cassette)).equals(original)).toBe(true);
    expect((await readdir(temp.dir)).filter((n) => n.startsWith("idle.yaml."))).toEqual([]);
  });

  it("--keep below 1 is a usage error", async () => {
    const result = await record([
      "--upstream",
      upstream.url,
      "--cassette",
      temp.file("k.yaml"),
      "--mode",
      "all",
      "--keep",
      "0",
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--keep must be a whole number above 0");
  });

  it.each(["once", "new", "all"])(
    "refuses to record over a file that is not a cassette (mode %s): exit 2, the file untouched",
    async (mode) => {
      const file = temp.file(`package-${mode}.json`);
      await copyFile(join(packageRoot(), "package.json"), file);
      const before = await readFile(file);
      const result = await record([
        "--upstream",
        upstream.url,
        "--cassette",
        file,
        "--port",
        "0",
        "--mode",
        mode,
      ]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`refusing to record over ${file}: it is not an assopay cassette`);
      expect(result.stderr).toContain("hint:");
      expect((await readFile(file)).equals(before)).toBe(true);
      expect((await readdir(temp.dir)).filter((n) => n.startsWith(`package-${mode}.json.`))).toEqual([]);
    },
  );

  it("records over an empty file, which holds nothing to lose", async () => {
    const file = temp.file("empty.yaml");
    await writeFile(file, "");
    const recorder = await startRecorder({ upstream: upstream.url, cassette: file, mode: "all" });
    await send(`${recorder.url}/n`);
    await recorder.close();
    expect((await loadCassette(file)).interactions).toHaveLength(1);
  });
});
