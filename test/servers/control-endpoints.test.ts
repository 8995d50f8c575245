import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadContract } from "../../contracts/index.js";
import type { RunningServer } from "../../core/http/server.js";
import { type RunningRecorder, startRecorder } from "../../proxy/record/server.js";
import { type RunningReplay, startReplay } from "../../proxy/replay/server.js";
import { type RunningSandbox, startSandbox } from "../../sandbox/index.js";
import { type Receiver, startReceiver } from "../../specs/notifications/receiver.js";
import { startStateServer } from "../../specs/pact/state-server.js";
import { send, tempDir } from "../proxy/support/http.js";
import { type FakeUpstream, startFakeUpstream } from "../proxy/support/intercept.js";

const contract = loadContract();
const closers: (() => Promise<unknown>)[] = [];
let sandbox: RunningSandbox;
let service: FakeUpstream;
let replay: RunningReplay;
let recorder: RunningRecorder;
let states: RunningServer;
let receiver: Receiver;

/** What a simple cross-site request (a form post, a no-cors fetch) can send, and what a browser adds. */
const SIMPLE_TYPES = ["application/x-www-form-urlencoded", "text/plain", "multipart/form-data; boundary=x"];
const FOREIGN: Record<string, string>[] = [
  { origin: "http://127.0.0.1:1" },
  { origin: "http://evil.test" },
  { origin: "null" },
  { "sec-fetch-site": "cross-site" },
  { "sec-fetch-site": "same-site" },
];

beforeAll(async () => {
  const dir = await tempDir();
  service = await startFakeUpstream();
  closers.push(
    () => service.close(),
    () => dir.remove(),
  );
  const first = await startRecorder({ upstream: service.url, cassette: dir.file("c.yaml"), port: 0 });
  for (let n = 0; n < 2; n++) expect((await send(`${first.url}/v5/counter`)).status).toBe(200);
  await first.close();
  replay = await startReplay({ cassettes: dir.file("c.yaml"), port: 0 });
  recorder = await startRecorder({ upstream: service.url, cassette: dir.file("d.yaml"), port: 0 });
  sandbox = await startSandbox({ contract, port: 0 });
  states = await startStateServer(() => ({ ok: true, values: { id: "1" }, unknown: {} }));
  receiver = await startReceiver();
  closers.push(
    () => replay.close(),
    () => recorder.close(),
    () => sandbox.close(),
    () => states.close(),
    () => receiver.close(),
  );
});

afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

const post = (url: string, headers: Record<string, string>, body = "{}") =>
  send(url, { method: "POST", headers, body });

/** The sandbox's control endpoints and a body each would act on. */
function sandboxControls(): [string, string][] {
  return [
    [
      `${sandbox.url}/_states`,
      JSON.stringify({ state: "a partner with a notification URL", action: "setup" }),
    ],
    [`${sandbox.url}/_clock`, JSON.stringify({ advanceMinutes: 60 })],
    [`${sandbox.url}/_sink`, JSON.stringify({ eventType: "Order" })],
    [`${sandbox.url}/`, JSON.stringify({ description: "x", providerStates: [] })],
  ];
}

async function sandboxView() {
  const clock = (await send(`${sandbox.url}/_clock`)).json();
  const sink = (await send(`${sandbox.url}/_sink`)).json();
  const log = (await send(`${sandbox.url}/_notifications`)).json();
  const registrations = sandbox.core.store.registrations.length;
  return { clock, sink, log, registrations };
}

describe("state-changing control endpoints refuse what a web page of another site can send", () => {
  it("the replay's reset: a simple body type gets 415, another site's page 403; the sequence goes on", async () => {
    replay.reset();
    expect((await send(`${replay.url}/v5/counter`)).json()).toMatchObject({ answer: 1 });
    const reset = `${replay.url}/__assopay/reset`;
    for (const type of SIMPLE_TYPES) {
      const reply = await post(reset, { "content-type": type });
      expect(reply.status, type).toBe(415);
      expect(reply.json<{ detail: string }>().detail).toContain("x-assopay-control: 1");
    }
    expect((await post(reset, {})).status).toBe(415);
    for (const headers of FOREIGN) {
      const reply = await post(reset, { ...headers, "content-type": "application/json" });
      expect(reply.status, JSON.stringify(headers)).toBe(403);
    }
    // Nothing was reset: the sequence is at its second recording.
    expect((await send(`${replay.url}/v5/counter`)).json()).toMatchObject({ answer: 2 });
  });

  it("the replay's reset: JSON, the control header, or the replay's own origin are taken", async () => {
    const reset = `${replay.url}/__assopay/reset`;
    const own = { origin: replay.url, "sec-fetch-site": "same-origin" };
    const legal: Record<string, string>[] = [
      { "content-type": "application/json" },
      { "content-type": "application/json; charset=utf-8" },
      { "x-assopay-control": "1" },
      { ...own, "content-type": "application/json" },
    ];
    for (const headers of legal) {
      expect((await send(`${replay.url}/v5/counter`)).status).toBe(200);
      expect((await post(reset, headers)).status, JSON.stringify(headers)).toBe(200);
      expect((await send(`${replay.url}/v5/counter`)).json()).toMatchObject({ answer: 1 });
    }
  });

  it("the sandbox's states, clock, sink and Pact messages: nothing changes from a simple or foreign request", async () => {
    const before = await sandboxView();
    for (const [url, body] of sandboxControls()) {
      for (const type of SIMPLE_TYPES)
        expect((await post(url, { "content-type": type }, body)).status, url).toBe(415);
      for (const headers of FOREIGN) {
        const reply = await post(url, { ...headers, "content-type": "application/json" }, body);
        expect(reply.status, `${url} ${JSON.stringify(headers)}`).toBe(403);
      }
    }
    const after = await sandboxView();
    expect(after.sink).toEqual(before.sink);
    expect(after.log).toEqual(before.log);
    expect(after.registrations).toBe(before.registrations);
    // The clock runs in real time; 60 minutes were asked, far less than a minute went by.
    expect(Date.parse(String(after.clock.utc)) - Date.parse(String(before.clock.utc))).toBeLessThan(60_000);
  });

  it("the sandbox's control endpoints take JSON or the control header, from programs and its own pages", async () => {
    expect(
      (await post(`${sandbox.url}/_clock`, { "content-type": "application/json" }, '{"reset":true}')).status,
    ).toBe(200);
    expect((await post(`${sandbox.url}/_clock`, { "x-assopay-control": "1" }, '{"reset":true}')).status).toBe(
      200,
    );
    const own = { origin: sandbox.url, "content-type": "application/json" };
    expect((await post(`${sandbox.url}/_sink`, own, '{"eventType":"Order"}')).status).toBe(200);
    expect((await send(`${sandbox.url}/_sink`)).json<{ received: unknown[] }>().received).toHaveLength(1);
    const state = await post(
      `${sandbox.url}/_states`,
      { "content-type": "application/json" },
      '{"action":"teardown"}',
    );
    expect(state.status).toBe(200);
  });

  it("the sandbox's service routes answer as the service does, whoever asks (OAuth guards them)", async () => {
    const reply = await send(`${sandbox.url}/v5/users/me/organizations`, {
      headers: { origin: "http://evil.test" },
    });
    expect(reply.status).toBe(401);
  });

  it("the recorder forwards and records nothing a page of another site sends", async () => {
    const before = service.seen.length;
    for (const headers of FOREIGN) {
      const reply = await send(`${recorder.url}/v5/from-a-page`, { method: "POST", headers, body: "x=1" });
      expect(reply.status, JSON.stringify(headers)).toBe(403);
    }
    expect(service.seen.length).toBe(before);
    const program = await send(`${recorder.url}/v5/from-a-program`);
    expect(program.status).toBe(200);
    const own = await send(`${recorder.url}/v5/own-origin`, { headers: { "sec-fetch-site": "same-origin" } });
    expect(own.status).toBe(200);
    expect(service.seen.slice(before).map((s) => s.path)).toEqual(["/v5/from-a-program", "/v5/own-origin"]);
  });

  it("verify's provider-state server and notification receiver refuse the same; Pact's JSON is taken", async () => {
    const body = JSON.stringify({ state: "s", action: "setup" });
    expect((await post(states.url, { "content-type": "text/plain" }, body)).status).toBe(415);
    expect(
      (await post(states.url, { origin: "http://evil.test", "content-type": "application/json" }, body))
        .status,
    ).toBe(403);
    expect((await post(states.url, { "content-type": "application/json" }, body)).json()).toEqual({
      id: "1",
    });
    expect((await post(receiver.url, { origin: "http://evil.test" }, "{}")).status).toBe(403);
    expect(receiver.deliveries()).toHaveLength(0);
    expect((await post(receiver.url, { "content-type": "application/json" }, "{}")).status).toBe(200);
    expect(receiver.deliveries()).toHaveLength(1);
  });
});
