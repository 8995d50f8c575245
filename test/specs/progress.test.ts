import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createProgress } from "../../specs/runner/progress.js";

function stream(isTTY: boolean) {
  const chunks: string[] = [];
  const writable = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  }) as Writable & { isTTY?: boolean };
  writable.isTTY = isTTY;
  return { writable, chunks };
}

describe("progress", () => {
  it("redraws one live line on a terminal and clears it when done", () => {
    const { writable, chunks } = stream(true);
    let now = 0;
    const progress = createProgress(writable, { now: () => now });
    for (let page = 1; page <= 10; page++) {
      now += 50;
      progress.update("crawling v5.form-items", `${page} pages`);
    }
    progress.done();
    expect(chunks.length).toBe(6);
    expect(chunks[0]).toBe("\r\x1b[2K… crawling v5.form-items: 2 pages");
    expect(chunks.at(-1)).toBe("\r\x1b[2K");
  });

  it("writes a plain line now and then elsewhere (CI logs)", () => {
    const { writable, chunks } = stream(false);
    let now = 0;
    const progress = createProgress(writable, { now: () => now, intervalMs: 10_000 });
    for (let second = 1; second <= 30; second++) {
      now += 1_000;
      progress.update("crawling v5.org-items", `${second} pages`);
    }
    progress.done();
    expect(chunks).toEqual([
      "… crawling v5.org-items: 10 pages\n",
      "… crawling v5.org-items: 20 pages\n",
      "… crawling v5.org-items: 30 pages\n",
    ]);
  });
});
