import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Command } from "../../cli/command.js";
import { recordCommand } from "../../cli/commands/record.js";
import { replayCommand } from "../../cli/commands/replay.js";
import { type RunningReplay, startReplay } from "../../proxy/replay/server.js";
import { writeCassette } from "./support/cassettes.js";
import { startCountingUpstream } from "./support/counting-upstream.js";
import { send, tempDir } from "./support/http.js";
import { startVerb, untilPrinted } from "./support/in-process.js";

/** Runs a command until `whileRunning` is done with its first stdout line, then aborts it as SIGINT would. */
async function run(command: Command, argv: string[], whileRunning: (line: string) => Promise<void>) {
  const verb = startVerb(command, argv);
  verb.running.catch(() => undefined);
  await untilPrinted(verb, "\n");
  try {
    await whileRunning(verb.stdout());
  } finally {
    verb.stop();
  }
  const code = await verb.running;
  return { code, stdout: verb.stdout(), stderr: verb.stderr() };
}

const counter = (n: number) => ({ path: "/counter", body: { json: { n } } });

describe("replay sequences start over", () => {
  let temp: Awaited<ReturnType<typeof tempDir>>;
  let replay: RunningReplay;

  beforeAll(async () => {
    temp = await tempDir();
    const file = temp.file("sequence.yaml");
    await writeCassette(file, [
      counter(1),
      counter(2),
      counter(3),
      {
        method: "POST",
        path: "/v5/checkout",
        requestHeaders: { "content-type": "application/json" },
        requestBody: { json: { a: 1 } },
        body: { json: { id: "first" } },
      },
      {
        method: "POST",
        path: "/v5/checkout",
        requestHeaders: { "content-type": "application/json" },
        requestBody: { json: { a: 1 } },
        body: { json: { id: "second" } },
      },
    ]);
    replay = await startReplay({ cassettes: file });
  });

  afterAll(async () => {
    await replay.close();
    await temp.remove();
  });

  async function sequence(): Promise<unknown[]> {
    const out: unknown[] = [];
    for (let i = 0; i < 4; i++) out.push((await send(`${replay.url}/counter`)).json());
    for (let i = 0; i < 3; i++) {
      const reply = await send(`${replay.url}/v5/checkout`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: '{"a":1}',
      });
      out.push(reply.json());
    }
    return out;
  }

  const EXPECTED = [
    { n: 1 },
    { n: 2 },
    { n: 3 },
    { n: 3 },
    { id: "first" },
    { id: "second" },
    { id: "second" },
  ];

  it("gives the same answers twice after POST /__assopay/reset, and after replay.reset()", async () => {
    expect(await sequence()).toEqual(EXPECTED);
    // Without a reset, the sequences stay at their end.
    expect((await send(`${replay.url}/counter`)).json()).toEqual({ n: 3 });
    const reset = await send(`${replay.url}/__assopay/reset`, {
      method: "POST",
      headers: { "x-assopay-control": "1" },
    });
    expect(reset.status).toBe(200);
    expect(reset.json()).toEqual({ reset: true });
    expect(await sequence()).toEqual(EXPECTED);
    replay.reset();
    expect(await sequence()).toEqual(EXPECTED);
  });

  it("only POST resets: a GET of the path is a miss like any other", async () => {
    replay.reset();
    expect((await send(`${replay.url}/counter`)).json()).toEqual({ n: 1 });
    expect((await send(`${replay.url}/__assopay/reset`)).status).toBe(501);
    expect((await send(`${replay.url}/counter`)).json()).toEqual({ n: 2 });
  });
});

describe("start-up: --json and --host", () => {
  let temp: Awaited<ReturnType<typeof tempDir>>;
  let file: string;
  let upstream: Awaited<ReturnType<typeof startCountingUpstream>>;

  beforeAll(async () => {
    temp = await tempDir();
    upstream = await startCountingUpstream();
    file = temp.file("startup.yaml");
    await writeCassette(file, [counter(1)]);
  });

  afterAll(async () => {
    await upstream.close();
    await temp.remove();
  });

  it("replay --json prints one JSON line with url, port, host and caPath, and nothing else on stdout", async () => {
    const result = await run(
      replayCommand,
      ["--cassette", file, "--port", "0", "--json", "--quiet"],
      async (line) => {
        const start = JSON.parse(line) as Record<string, unknown>;
        expect(start).toMatchObject({ command: "replay", host: "127.0.0.1", caPath: null, interactions: 1 });
        expect(start.url).toBe(`http://127.0.0.1:${start.port}`);
        expect((await send(`${String(start.url)}/counter`)).json()).toEqual({ n: 1 });
      },
    );
    expect(result.code).toBe(0);
    expect(result.stdout.trimEnd().split("\n")).toHaveLength(1);
    expect(result.stderr).toContain("stopped");
  });

  it("replay without --json keeps the text line", async () => {
    const result = await run(replayCommand, ["--cassette", file, "--port", "0"], async (line) => {
      expect(line).toMatch(/^assopay replay: listening on http:\/\/127\.0\.0\.1:\d+/);
      expect(() => JSON.parse(line)).toThrow();
    });
    expect(result.code).toBe(0);
  });

  it("replay --host binds the address given, and only it", async () => {
    // A listener of the test's own holds the same port on 127.0.0.1 (a port taken at random could be
    // another test's there): replay must start beside it, and a request to 127.0.0.1 must reach it.
    const other = createServer((_, res) => res.end("not replay"));
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    const port = (other.address() as AddressInfo).port;
    try {
      await run(
        replayCommand,
        ["--cassette", file, "--port", String(port), "--host", "127.0.0.2", "--json"],
        async (line) => {
          const start = JSON.parse(line) as { url: string; port: number; host: string };
          expect(start.host).toBe("127.0.0.2");
          expect(start.url).toBe(`http://127.0.0.2:${port}`);
          expect((await send(`${start.url}/counter`)).status).toBe(200);
          expect((await send(`http://127.0.0.1:${port}/counter`)).text).toBe("not replay");
        },
      );
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });

  it("record --json --host prints the same start line, with the notification URL", async () => {
    const cassette = temp.file("recorded.yaml");
    const argv = [
      "--upstream",
      upstream.url,
      "--cassette",
      cassette,
      "--port",
      "0",
      "--host",
      "127.0.0.2",
      "--json",
    ];
    const result = await run(recordCommand, argv, async (line) => {
      const start = JSON.parse(line) as Record<string, unknown>;
      expect(start).toMatchObject({
        command: "record",
        host: "127.0.0.2",
        caPath: null,
        upstream: upstream.url,
      });
      expect(start.url).toBe(`http://127.0.0.2:${start.port}`);
      expect(start.notificationUrl).toBe(`${String(start.url)}/__assopay/notifications`);
      expect((await send(`${String(start.url)}/counter`)).status).toBe(200);
    });
    expect(result.code).toBe(0);
    expect(result.stdout.trimEnd().split("\n")).toHaveLength(1);
  });
});
