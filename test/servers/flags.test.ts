import { Writable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import type { Command } from "../../cli/command.js";
import { replayCommand } from "../../cli/commands/replay.js";
import { sandboxCommand } from "../../cli/commands/sandbox.js";
import { AssopayError } from "../../core/errors.js";
import { send } from "../proxy/support/http.js";

/** A serving verb run in this process with both streams kept; `stop()` aborts it and gives its exit code. */
function serve(command: Command, argv: string[]) {
  let out = "";
  let err = "";
  const stream = (keep: (text: string) => void) =>
    new Writable({
      write(chunk, _encoding, done) {
        keep(String(chunk));
        done();
      },
    });
  const controller = new AbortController();
  const exit = command.run({
    argv,
    stdout: stream((text) => {
      out += text;
    }),
    stderr: stream((text) => {
      err += text;
    }),
    env: {},
    signal: controller.signal,
  });
  const started = async (): Promise<Record<string, unknown>> => {
    for (let waited = 0; waited < 20_000; waited += 20) {
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (line) return JSON.parse(line) as Record<string, unknown>;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`no start line: ${out} ${err}`);
  };
  return {
    started,
    stderr: () => err,
    exit,
    stop: async () => {
      controller.abort();
      return exit;
    },
  };
}

const running: { stop(): Promise<number> }[] = [];
afterEach(async () => {
  for (const verb of running.splice(0)) await verb.stop();
});

describe("the servers' flags: --allow-host and --notify-any-host", () => {
  it("sandbox --allow-host NAME answers that Host; without it the same request gets 421", async () => {
    const allowed = serve(sandboxCommand, ["--port", "0", "--json", "--allow-host", "box.lan,other.lan"]);
    running.push(allowed);
    const plain = serve(sandboxCommand, ["--port", "0", "--json"]);
    running.push(plain);
    const a = String((await allowed.started()).url);
    const p = String((await plain.started()).url);
    for (const host of ["box.lan", "other.lan:4545"])
      expect((await send(`${a}/_clock`, { headers: { host } })).status).toBe(200);
    const refused = await send(`${p}/_clock`, { headers: { host: "box.lan" } });
    expect(refused.status).toBe(421);
    expect(refused.text).toContain("--allow-host NAME");
  });

  it("sandbox prints one line for a notification URL it will not deliver to, and --notify-any-host silences it", async () => {
    for (const [argv, expected] of [
      [[], 1],
      [["--notify-any-host"], 0],
    ] as const) {
      const verb = serve(sandboxCommand, ["--port", "0", "--json", ...argv]);
      running.push(verb);
      const url = String((await verb.started()).url);
      const state = (body: unknown) =>
        send(`${url}/_states`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        });
      // 0.0.0.0 is not a loopback URL, yet a connection to it stays on this machine (port 9: nothing answers).
      expect(
        (await state({ state: "a partner with a notification URL", params: { url: "http://0.0.0.0:9/h" } }))
          .status,
      ).toBe(200);
      expect((await state({ state: "an order is paid" })).status).toBe(200);
      const lines = verb
        .stderr()
        .split("\n")
        .filter((l) => l.includes("not sent"));
      expect(lines, argv.join(" ")).toHaveLength(expected);
      if (expected === 1) expect(lines[0]).toContain("0.0.0.0 is not a loopback address");
    }
  });

  it("refuses a bad --allow-host with a usage error", async () => {
    const verb = serve(replayCommand, [
      "--cassette",
      "recordings/pagination-crawl.yaml",
      "--port",
      "0",
      "--allow-host",
      "http://x/",
    ]);
    await expect(verb.exit).rejects.toThrow(AssopayError);
    await expect(verb.exit).rejects.toThrow(/--allow-host: "http:\/\/x\/" is not a host name/);
  });
});
