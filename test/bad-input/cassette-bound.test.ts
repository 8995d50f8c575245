import { stat, writeFile } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadCassette } from "../../proxy/cassette/reader.js";
import type { ProxyEvent } from "../../proxy/events.js";
import { createCassetteBudget } from "../../proxy/record/forwarder.js";
import { startRecorder } from "../../proxy/record/server.js";
import { send, tempDir } from "../proxy/support/http.js";
import { startUpstream } from "../proxy/support/upstream.js";

describe("the cassette size bound, --max-cassette-bytes (docs/bad-inputs.md)", () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let temp: Awaited<ReturnType<typeof tempDir>>;

  beforeEach(async () => {
    upstream = await startUpstream();
    temp = await tempDir();
  });
  afterEach(async () => {
    await upstream.close();
    await temp.remove();
  });

  /**
   * Sends requests one after the other, `gapMs` apart, and returns their statuses. The bound is looked at
   * in the background, at most every 200 ms, when a request comes: 250 ms apart, every request brings a
   * look; closer, a look comes every few requests, and the recording may pass the bound by as many.
   * With `events`, each next request waits until the recorder has said it recorded the last one (a slow
   * machine writes later, never out of step with the looks), so each look sees one more exchange.
   */
  async function traffic(
    url: string,
    count: number,
    gapMs: number,
    events?: ProxyEvent[],
  ): Promise<number[]> {
    const statuses: number[] = [];
    for (let i = 0; i < count; i++) {
      const status = (await send(`${url}/v5/organizations/o/items?n=${i}`)).status;
      statuses.push(status);
      const recorded = statuses.filter((s) => s === 200).length;
      while (events && events.filter((e) => e.kind === "recorded").length < recorded) await sleep(10);
      await sleep(gapMs);
    }
    return statuses;
  }

  it("warns at 80%, then stops recording and answers 507 at the bound", async () => {
    const events: ProxyEvent[] = [];
    const cassette = temp.file("bounded.yaml");
    const recorder = await startRecorder({
      upstream: upstream.url,
      cassette,
      maxCassetteBytes: 12_000,
      onEvent: (event) => events.push(event),
    });
    const statuses = await traffic(recorder.url, 36, 250, events);
    const warnings = events.filter((e) => e.kind === "warning").map((e) => e.message);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/% of --max-cassette-bytes \(0\.0 MiB\): at the bound the recorder stops/);
    expect(warnings[1]).toContain("reached --max-cassette-bytes");
    expect(warnings[1]).toContain("new requests get 507");
    const firstRefused = statuses.indexOf(507);
    expect(firstRefused).toBeGreaterThan(0);
    expect(statuses.slice(0, firstRefused).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(firstRefused).every((s) => s === 507)).toBe(true);
    const refused = await send(`${recorder.url}/v5/partners/me`);
    expect(refused.json()).toMatchObject({ type: "urn:assopay:problem:cassette-full", status: 507 });
    await recorder.close();
    const loaded = await loadCassette(cassette);
    expect(loaded.interactions).toHaveLength(firstRefused);
    expect((await stat(cassette)).size).toBeGreaterThanOrEqual(12_000);
  });

  it("records on without a word while the cassette stays under 80% of the bound", async () => {
    const events: ProxyEvent[] = [];
    const cassette = temp.file("roomy.yaml");
    const recorder = await startRecorder({
      upstream: upstream.url,
      cassette,
      maxCassetteBytes: 1_000_000,
      onEvent: (event) => events.push(event),
    });
    expect(await traffic(recorder.url, 8, 250)).toEqual(Array(8).fill(200));
    await recorder.close();
    expect(events.filter((e) => e.kind === "warning")).toEqual([]);
    expect((await loadCassette(cassette)).interactions).toHaveLength(8);
  });

  it("in --mode all, judges the new recording, not the old cassette it will replace", async () => {
    const cassette = temp.file("replaced.yaml");
    const first = await startRecorder({ upstream: upstream.url, cassette, maxCassetteBytes: 1_000_000 });
    await traffic(first.url, 12, 0);
    await first.close();
    expect((await stat(cassette)).size).toBeGreaterThan(6_000);
    const events: ProxyEvent[] = [];
    const again = await startRecorder({
      upstream: upstream.url,
      cassette,
      mode: "all",
      maxCassetteBytes: 6_000,
      onEvent: (event) => events.push(event),
    });
    // The old cassette is past the bound already; the new recording starts empty, so there is room.
    expect(await traffic(again.url, 3, 250)).toEqual([200, 200, 200]);
    await again.close();
    expect(events.map((e) => e.message).filter((m) => m.includes("max-cassette-bytes"))).toEqual([]);
    expect((await loadCassette(cassette)).interactions).toHaveLength(3);
  });

  it("counts what is recorded and not yet in the cassette, and only that (the cassette lags under load)", async () => {
    const events: ProxyEvent[] = [];
    const cassette = temp.file("lagging.yaml");
    await writeFile(cassette, "x".repeat(4_000));
    let pending = 0;
    const budget = createCassetteBudget(
      cassette,
      10_000,
      (event) => events.push(event),
      () => pending,
    );
    // The size is looked at, in the background, at most every 200 ms when a request comes: a few looks,
    // each given time to end, until one refuses (a slow machine only makes each look later).
    const lookTwice = async () => {
      for (let look = 0; look < 4; look++) {
        await sleep(250);
        const refused = budget.refusal();
        if (refused) return refused;
      }
      return budget.refusal();
    };
    expect(await lookTwice()).toBeUndefined();
    // A journal whose exchanges are all in the cassette already (it is emptied only once the recorder
    // is idle) takes no room: counting it would end a long recording at half its bound.
    await writeFile(`${cassette}.journal`, Buffer.alloc(7_000));
    expect(await lookTwice()).toBeUndefined();
    expect(events).toEqual([]);
    pending = 7_000;
    expect(await lookTwice()).toMatchObject({ status: 507 });
    expect(events.map((e) => e.message).join("\n")).toContain("reached --max-cassette-bytes");
  });

  it("refuses a bound that is not a positive number of bytes", async () => {
    await expect(
      startRecorder({ upstream: upstream.url, cassette: temp.file("x.yaml"), maxCassetteBytes: 0 }),
    ).rejects.toThrow("the cassette bound must be a positive number of bytes, got 0");
  });
});
