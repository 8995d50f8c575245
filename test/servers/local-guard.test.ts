import { networkInterfaces } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadContract } from "../../contracts/index.js";
import type { RunningServer } from "../../core/http/server.js";
import { startScenarioLayer } from "../../gate/layer/server.js";
import { SCENARIO_NAMES, type ScenarioName, scenarioByName } from "../../gate/scenarios.js";
import { startRecorder } from "../../proxy/record/server.js";
import { startReplay } from "../../proxy/replay/server.js";
import { type RunningSandbox, startSandbox } from "../../sandbox/index.js";
import { startReceiver } from "../../specs/notifications/receiver.js";
import { startStateServer } from "../../specs/pact/state-server.js";
import { send, tempDir } from "../proxy/support/http.js";
import { type FakeUpstream, startFakeUpstream } from "../proxy/support/intercept.js";

const contract = loadContract();
const closers: (() => Promise<unknown>)[] = [];
let sandbox: RunningSandbox;
let service: FakeUpstream;
let dir: Awaited<ReturnType<typeof tempDir>>;
/** Every server of the tool, by name: the URL a request to it starts with (its path included). */
const servers = new Map<string, string>();

beforeAll(async () => {
  dir = await tempDir();
  service = await startFakeUpstream();
  closers.push(
    () => service.close(),
    () => dir.remove(),
  );
  sandbox = await startSandbox({ contract, port: 0 });
  closers.push(() => sandbox.close());
  const recorder = await startRecorder({ upstream: service.url, cassette: dir.file("guard.yaml"), port: 0 });
  closers.push(() => recorder.close());
  const recorded = await send(`${recorder.url}/v5/recorded`);
  expect(recorded.status).toBe(200);
  await recorder.close();
  const replay = await startReplay({ cassettes: dir.file("guard.yaml"), port: 0 });
  closers.push(() => replay.close());
  const recorder2 = await startRecorder({
    upstream: service.url,
    cassette: dir.file("second.yaml"),
    port: 0,
  });
  closers.push(() => recorder2.close());
  const states: RunningServer = await startStateServer(() => ({ ok: true, values: {}, unknown: {} }));
  closers.push(() => states.close());
  const receiver = await startReceiver();
  closers.push(() => receiver.close());
  const layer = await startScenarioLayer({
    upstream: sandbox.url,
    scenario: scenarioByName(SCENARIO_NAMES[0] as ScenarioName),
    contract,
    maxRequests: 100,
    seed: "guard",
    upstreamTimeoutMs: 10_000,
    onBudgetSpent: () => undefined,
  });
  closers.push(() => layer.close());
  servers.set("sandbox", `${sandbox.url}/_clock`);
  servers.set("replay", `${replay.url}/v5/recorded`);
  servers.set("recorder", `${recorder2.url}/v5/recorded`);
  servers.set("state server", states.url);
  servers.set("receiver", receiver.url);
  servers.set("gate layer", `${layer.url}/v5/users/me/organizations`);
});

afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

function withHost(url: string, host: string) {
  return send(url, { headers: { host } });
}

describe("every server answers only Host values that name it", () => {
  it("refuses another name (DNS rebinding) with 421, saying how to allow it, and nothing is done", async () => {
    const before = service.seen.length;
    for (const [name, url] of servers) {
      for (const host of ["evil.test", `evil.test:${new URL(url).port}`, "127.0.0.1.evil.test", "[::2]"]) {
        const reply = await withHost(url, host);
        expect(reply.status, `${name} with Host ${host}`).toBe(421);
        expect(reply.json<{ detail: string }>().detail).toContain("--allow-host NAME");
        expect(reply.json<{ detail: string }>().detail).toContain(host);
      }
    }
    // The recorder forwarded none of them.
    expect(service.seen.length).toBe(before);
  });

  it("answers 127.0.0.1, localhost and [::1], with its port or none", async () => {
    for (const [name, url] of servers) {
      const port = new URL(url).port;
      for (const host of [
        `127.0.0.1:${port}`,
        `localhost:${port}`,
        "localhost",
        `[::1]:${port}`,
        "LOCALHOST.",
      ]) {
        const reply = await withHost(url, host);
        expect(reply.status, `${name} with Host ${host}`).not.toBe(421);
        expect(reply.status, `${name} with Host ${host}`).toBeLessThan(500);
      }
    }
  });

  it("answers a name given with allowHosts (--allow-host), at any port", async () => {
    const allowed = await startSandbox({ contract, port: 0, allowHosts: ["my-laptop.lan"] });
    try {
      expect((await withHost(`${allowed.url}/_clock`, "my-laptop.lan:8080")).status).toBe(200);
      expect((await withHost(`${allowed.url}/_clock`, "other.lan")).status).toBe(421);
    } finally {
      await allowed.close();
    }
    const replay = await startReplay({
      cassettes: dir.file("guard.yaml"),
      port: 0,
      allowHosts: ["tunnel.example"],
    });
    try {
      expect((await withHost(`${replay.url}/v5/recorded`, "tunnel.example")).status).toBe(200);
    } finally {
      await replay.close();
    }
  });

  it("bound to every interface, answers this machine's own addresses too, and still no other name", async () => {
    const own = Object.values(networkInterfaces())
      .flatMap((list) => list ?? [])
      .find((entry) => entry.family === "IPv4" && !entry.internal)?.address;
    const replay = await startReplay({ cassettes: dir.file("guard.yaml"), port: 0, host: "0.0.0.0" });
    try {
      if (own !== undefined)
        expect((await withHost(`${replay.url}/v5/recorded`, `${own}:80`)).status).toBe(200);
      expect((await withHost(`${replay.url}/v5/recorded`, "evil.test")).status).toBe(421);
      expect((await withHost(`${replay.url}/v5/recorded`, "10.255.255.254")).status).toBe(421);
    } finally {
      await replay.close();
    }
  });

  it("refuses an --allow-host that is not a host name, at start", async () => {
    for (const bad of ["http://x.test/", "x.test:80", "x.test/path", "a b", ""]) {
      await expect(startSandbox({ contract, port: 0, allowHosts: [bad] })).rejects.toThrow(
        /--allow-host: ".*" is not a host name/,
      );
    }
  });

  it("takes an intercepted host as its own name (the forward proxy's requests carry it)", async () => {
    const replay = await startReplay({
      cassettes: dir.file("guard.yaml"),
      port: 0,
      intercept: ["api.helloasso.com"],
      caDir: join(dir.dir, "ca"),
    });
    try {
      expect((await withHost(`${replay.url}/v5/recorded`, "api.helloasso.com")).status).toBe(200);
      expect((await withHost(`${replay.url}/v5/recorded`, "api.helloasso.org")).status).toBe(421);
    } finally {
      await replay.close();
    }
  });
});
