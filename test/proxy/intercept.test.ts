import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { recordCommand } from "../../cli/commands/record.js";
import { replayCommand } from "../../cli/commands/replay.js";
import { installIntercept } from "../../proxy/intercept/install.js";
import {
  CLIENT,
  PRELOAD,
  perTest,
  quietEnvironment,
  run,
  runVerb,
  SOCKET_GUARD,
} from "./support/intercept.js";

const HOST = "api.helloasso.com";
const { scratch, upstream } = perTest("assopay-intercept-");

/** The hard-coded client under the socket guard, with the preload unless told otherwise. */
function client(variables: Record<string, string>, preload = true) {
  const env = {
    ...quietEnvironment(),
    ASSOPAY_INTERCEPT_HOSTS: variables.ASSOPAY_INTERCEPT_HOSTS,
    ASSOPAY_INTERCEPT_TARGET: variables.ASSOPAY_INTERCEPT_TARGET,
  };
  const preloads = preload ? ["--import", PRELOAD] : [];
  return run(process.execPath, ["--import", "tsx", "--require", SOCKET_GUARD, ...preloads, CLIENT], env);
}

// Child processes (tsx, RSA keys, curl) are slow on a loaded machine: a generous time limit per test.
describe("the Node preload (node --import assopay-contract/intercept)", { timeout: 120_000 }, () => {
  it("records an unmodified client calling https://api.helloasso.com, then replays it", async () => {
    const dir = await scratch();
    const service = await upstream();
    const cassette = join(dir, "session.yaml");
    const common = ["--port", "0", "--intercept", HOST, "--ca-dir", join(dir, "ca"), "--json", "--quiet"];
    const recorder = runVerb(
      recordCommand,
      ["--upstream", service.url, "--cassette", cassette, ...common],
      {},
    );
    const recording = await recorder.json();
    expect(recording.ASSOPAY_INTERCEPT_HOSTS).toBe(HOST);
    const recorded = JSON.parse((await client(recording)).stdout);
    expect(await recorder.stop()).toBe(0);

    expect(service.seen.map((s) => `${s.method} ${s.path}`)).toEqual([
      "GET /v5/users/me/organizations",
      "POST /v5/organizations/asso/checkout-intents",
      "GET /v5/organizations/asso/forms?pageSize=2",
    ]);
    // The intercept header stops at the recorder: neither the upstream nor the cassette sees it.
    expect(service.seen.map((s) => s.intercepted)).toEqual([undefined, undefined, undefined]);
    expect(recorded.posted.body.body).toBe(JSON.stringify({ totalAmount: 1200, itemName: "Adhésion" }));
    const text = await readFile(cassette, "utf8");
    expect(text).toContain(`upstream: ${service.url}/`);
    expect(text).not.toContain("x-assopay-intercepted-origin");
    expect(text).not.toContain("HardCodedClientToken");

    await service.close();
    const replay = runVerb(replayCommand, ["--cassette", cassette, ...common], {});
    const replaying = await replay.json();
    const replayed = JSON.parse((await client(replaying)).stdout);
    await replay.stop();
    expect(replayed).toEqual(recorded);
    expect(service.seen).toHaveLength(3);
  });

  it("without the preload the same client heads for the live host, and the socket guard stops it", async () => {
    const failure = await client(
      { ASSOPAY_INTERCEPT_HOSTS: HOST, ASSOPAY_INTERCEPT_TARGET: "http://127.0.0.1:9" },
      false,
    )
      .then(() => undefined)
      .catch((error: { code: number; stderr: string }) => error);
    expect(failure?.code).toBe(97);
    expect(failure?.stderr).toContain(`socket-guard: refused a connection to ${HOST}:443`);
  });

  it("stops the application with exit 2 when the variables are missing, rather than let it through", async () => {
    const failure = await client({}, true)
      .then(() => undefined)
      .catch((error: { code: number; stderr: string }) => error);
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toContain("it needs ASSOPAY_INTERCEPT_HOSTS and ASSOPAY_INTERCEPT_TARGET");
  });

  it("leaves the assopay command itself alone, so a recorder in the same shell never forwards to itself", async () => {
    const bin = join(import.meta.dirname, "..", "..", "cli", "bin.ts");
    const { stdout } = await run(
      process.execPath,
      ["--import", "tsx", "--import", PRELOAD, bin, "--version"],
      {
        ...quietEnvironment(),
      },
    );
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("sends only the named hosts to the target; any other host is left alone", async () => {
    const target = await upstream();
    const other = await upstream();
    const undo = installIntercept({ hosts: [HOST], target: target.url });
    try {
      const named = await fetch(`https://${HOST}/v5/partners/me?x=1`);
      expect(named.status).toBe(200);
      const untouched = await fetch(`${other.url}/v5/elsewhere`);
      expect(untouched.status).toBe(200);
    } finally {
      undo();
    }
    expect(target.seen.map((s) => [s.path, s.intercepted])).toEqual([
      ["/v5/partners/me?x=1", `https://${HOST}`],
    ]);
    expect(other.seen.map((s) => [s.path, s.intercepted])).toEqual([["/v5/elsewhere", undefined]]);
  });
});
