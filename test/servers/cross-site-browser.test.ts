import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadContract } from "../../contracts/index.js";
import { type RunningServer, startServer } from "../../core/http/server.js";
import { type RunningRecorder, startRecorder } from "../../proxy/record/server.js";
import { type RunningReplay, startReplay } from "../../proxy/replay/server.js";
import { type RunningSandbox, startSandbox } from "../../sandbox/index.js";
import { send, tempDir } from "../proxy/support/http.js";
import { type FakeUpstream, startFakeUpstream } from "../proxy/support/intercept.js";
import { launchChromium, requireChromium } from "../support/chromium.js";

/** The rebinding attacker's name: the browser resolves it to 127.0.0.1, as a rebound DNS answer would. */
const EVIL = "evil.test";

interface Target {
  /** A control endpoint or a route whose answer moves state (a replay sequence, a recording). */
  url: string;
  /** What a page would post: JSON, sent as a simple body type. */
  body: string;
}

/**
 * The attacker's page: for every target, no-cors fetches (text/plain, form-encoded, JSON-looking text),
 * a CORS fetch with a JSON type (which needs a preflight), a form post into an iframe, and an image
 * load; then it sets its title to "done".
 */
function attackPage(targets: readonly Target[]): string {
  return `<!doctype html><html><head><title>attacking</title></head><body><script>
const targets = ${JSON.stringify(targets)};
const quietly = (p) => p.then(() => undefined, () => undefined);
function formPost(url, body, enctype) {
  return new Promise((resolve) => {
    const frame = document.createElement("iframe");
    frame.name = "f" + Math.random().toString(36).slice(2);
    document.body.appendChild(frame);
    const form = document.createElement("form");
    form.method = "POST";
    form.action = url;
    form.enctype = enctype;
    form.target = frame.name;
    const input = document.createElement("input");
    input.type = "hidden";
    // text/plain sends name=value: a JSON body split across the name and the value.
    input.name = body.slice(0, -1) + ', "pad": "';
    input.value = '"}';
    form.appendChild(input);
    document.body.appendChild(form);
    frame.addEventListener("load", () => resolve(), { once: true });
    setTimeout(resolve, 3000);
    form.submit();
  });
}
function image(url) {
  return new Promise((resolve) => {
    const img = new Image();
    img.onload = img.onerror = () => resolve();
    img.src = url;
    setTimeout(resolve, 3000);
  });
}
(async () => {
  for (const t of targets) {
    await quietly(fetch(t.url, { method: "POST", mode: "no-cors", body: t.body }));
    await quietly(fetch(t.url, { method: "POST", mode: "no-cors", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "reset=true" }));
    await quietly(fetch(t.url, { method: "POST", headers: { "content-type": "application/json" }, body: t.body }));
    await quietly(fetch(t.url, { mode: "no-cors" }));
    await formPost(t.url, t.body, "text/plain");
    await formPost(t.url, t.body, "application/x-www-form-urlencoded");
    await image(t.url);
  }
  document.title = "done";
})();
</script></body></html>`;
}

describe("a web page of another origin cannot drive the replay, the sandbox or the recorder", () => {
  const contract = loadContract();
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let service: FakeUpstream;
  let sandbox: RunningSandbox;
  let replay: RunningReplay;
  let recorder: RunningRecorder;
  let attacker: RunningServer;
  let browser: Browser;
  let page: Page;
  let html = "";
  /** Status of every response the browser got from one of our servers. */
  const answers: { method: string; url: string; status: number }[] = [];

  const ours = (url: string) =>
    [sandbox.url, replay.url, recorder.url].some((base) => url.startsWith(base)) ||
    new URL(url).hostname === EVIL;

  async function sandboxState() {
    return {
      clock: (await send(`${sandbox.url}/_clock`)).json<{ utc: string }>().utc,
      sink: (await send(`${sandbox.url}/_sink`)).json(),
      notifications: (await send(`${sandbox.url}/_notifications`)).json(),
      registrations: sandbox.core.store.registrations.length,
    };
  }

  beforeAll(async () => {
    requireChromium();
    dir = await tempDir();
    service = await startFakeUpstream();
    // A replay whose /v5/counter has two recordings: the second answer shows nobody reset or consumed it.
    const first = await startRecorder({
      upstream: service.url,
      cassette: dir.file("replayed.yaml"),
      port: 0,
    });
    for (let n = 0; n < 2; n++) expect((await send(`${first.url}/v5/counter`)).status).toBe(200);
    await first.close();
    replay = await startReplay({ cassettes: dir.file("replayed.yaml"), port: 0 });
    recorder = await startRecorder({ upstream: service.url, cassette: dir.file("recording.yaml"), port: 0 });
    sandbox = await startSandbox({ contract, port: 0 });
    attacker = await startServer(
      createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(html)),
      { what: "attacker's page", port: 0 },
    );
    browser = await launchChromium(["--no-proxy-server", `--host-resolver-rules=MAP ${EVIL} 127.0.0.1`]);
    page = await browser.newPage();
    page.on("response", (response) => {
      if (ours(response.url()))
        answers.push({ method: response.request().method(), url: response.url(), status: response.status() });
    });
  });

  afterAll(async () => {
    await browser?.close();
    await attacker?.close();
    await sandbox?.close();
    await recorder?.close();
    await replay?.close();
    await service?.close();
    await dir?.remove();
  });

  it("every cross-site attempt on every control endpoint is refused, and nothing changed", async () => {
    expect((await send(`${replay.url}/v5/counter`)).json()).toMatchObject({ answer: 1 });
    expect((await send(`${recorder.url}/v5/legit`)).status).toBe(200);
    const before = await sandboxState();
    const seenBefore = service.seen.length;
    const partner = JSON.stringify({
      state: "a partner with a notification URL",
      params: { url: "http://127.0.0.1:9/x" },
    });
    const targets: Target[] = [
      { url: `${replay.url}/__assopay/reset`, body: '{"reset": true}' },
      { url: `${replay.url}/v5/counter`, body: "{}" },
      { url: `${sandbox.url}/_states`, body: partner },
      { url: `${sandbox.url}/_clock`, body: '{"advanceMinutes": 600}' },
      { url: `${sandbox.url}/_sink`, body: '{"eventType": "Order"}' },
      { url: `${sandbox.url}/`, body: '{"description": "x", "providerStates": []}' },
      { url: `${recorder.url}/v5/attack`, body: '{"amount": 1}' },
      { url: `${recorder.url}/__assopay/notifications`, body: '{"eventType": "Order"}' },
    ];
    html = attackPage(targets);
    await page.goto(`${attacker.url}/attack.html`);
    await page.waitForFunction('document.title === "done"', undefined, { timeout: 60_000 });

    // The browser did send them (so the servers' answers are what stopped them). Every POST is refused, and
    // every request to the replay and the recorder, whose answers move state. The sandbox answers GETs of
    // its own endpoints (reads: the browser keeps the body from the page).
    const refused = answers.filter((a) => a.method !== "GET" || !a.url.startsWith(sandbox.url));
    expect(refused.length).toBeGreaterThanOrEqual(targets.length * 3);
    for (const answer of refused)
      expect([403, 415, 421], `${answer.method} ${answer.url}: ${answer.status}`).toContain(answer.status);

    // Replay: not reset, and no recording consumed: the next answer is the second recording.
    expect((await send(`${replay.url}/v5/counter`)).json()).toMatchObject({ answer: 2 });
    // Sandbox: no state set up, no clock moved, nothing in the sink, no notification.
    const after = await sandboxState();
    expect(after.registrations).toBe(before.registrations);
    expect(after.sink).toEqual(before.sink);
    expect(after.notifications).toEqual(before.notifications);
    expect(Date.parse(after.clock) - Date.parse(before.clock)).toBeLessThan(60_000);
    // Recorder: nothing reached the upstream, and the cassette holds the one legitimate exchange.
    expect(service.seen.slice(seenBefore)).toEqual([]);
    await recorder.close();
    const cassette = await readFile(dir.file("recording.yaml"), "utf8");
    expect(cassette).toContain("/v5/legit");
    expect(cassette).not.toMatch(/\/v5\/attack|__assopay|eventType/);
  });

  it("a DNS-rebinding page (Host: evil.test) reads and changes nothing on any of them", async () => {
    answers.length = 0;
    const before = await sandboxState();
    const reads: [string, string[]][] = [
      [`http://${EVIL}:${new URL(sandbox.url).port}`, ["/_states", "/_clock", "/_notifications"]],
      [`http://${EVIL}:${new URL(replay.url).port}`, ["/v5/counter"]],
    ];
    for (const [origin, paths] of reads) {
      // The page is now same-origin with the server (as after a rebinding), so it can read what it gets.
      const landing = await page.goto(`${origin}/`);
      expect(landing?.status()).toBe(421);
      const statuses = await page.evaluate(async (list: string[]) => {
        const out: number[] = [];
        for (const path of list) {
          out.push((await fetch(path)).status);
          const post = await fetch(path, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: '{"advanceMinutes": 600, "reset": true}',
          });
          out.push(post.status);
          out.push((await post.text()).includes("--allow-host") ? 1 : 0);
        }
        return out;
      }, paths);
      expect(statuses).toEqual(paths.flatMap(() => [421, 421, 1]));
    }
    for (const answer of answers) expect(answer.status, answer.url).toBe(421);
    expect((await send(`${replay.url}/v5/counter`)).json()).toMatchObject({ answer: 2 });
    const after = await sandboxState();
    expect(Date.parse(after.clock) - Date.parse(before.clock)).toBeLessThan(60_000);
    expect(after.registrations).toBe(before.registrations);
  });

  it("the legal path still works from the browser: the sandbox's own page posts to its own origin", async () => {
    // Same origin (a page the sandbox serves): Origin and Sec-Fetch-Site name the sandbox itself.
    await page.goto(`${sandbox.url}/_site/own`);
    const status = await page.evaluate(async () => {
      const reply = await fetch("/_sink", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: '{"eventType": "Order"}',
      });
      return reply.status;
    });
    expect(status).toBe(200);
    expect((await send(`${sandbox.url}/_sink`)).json<{ received: unknown[] }>().received).toHaveLength(1);
  });
});
