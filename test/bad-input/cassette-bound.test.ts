import { stat } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadCassette } from "../../proxy/cassette/reader.js";
import type { ProxyEvent } from "../../proxy/events.js";
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

  /** Sends requests, one every 250 ms (the bound is looked at every 200 ms), and returns their statuses. */
  async function traffic(url: string, count: number): Promise<number[]> {
    const statuses: number[] = [];
    for (let i = 0; i < count; i++) {
      statuses.push((await send(`${url}/v5/organizations/o/items?n=${i}`)).status);
      await sleep(250);
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
    const statuses = await traffic(recorder.url, 30);
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
    expect(await traffic(recorder.url, 8)).toEqual(Array(8).fill(200));
    await recorder.close();
    expect(events.filter((e) => e.kind === "warning")).toEqual([]);
    expect((await loadCassette(cassette)).interactions).toHaveLength(8);
  });

  it("refuses a bound that is not a positive number of bytes", async () => {
    await expect(
      startRecorder({ upstream: upstream.url, cassette: temp.file("x.yaml"), maxCassetteBytes: 0 }),
    ).rejects.toThrow("the cassette bound must be a positive number of bytes, got 0");
  });
});
