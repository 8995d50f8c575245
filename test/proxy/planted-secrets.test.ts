import { readdir, readFile } from "node:fs/promises";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { placeholderFor } from "../../core/secrets/placeholder.js";
import { loadCassette } from "../../proxy/cassette/reader.js";
import type { ProxyEvent } from "../../proxy/events.js";
import { startRecorder } from "../../proxy/record/server.js";
import { tempDir } from "./support/http.js";
import { forms, plantedCorpus, servePlanted } from "./support/planted-corpus.js";

const { p, learned, responses, session } = plantedCorpus();

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

describe("secrets planted across every encoding", () => {
  let upstream: Server;
  let temp: Awaited<ReturnType<typeof tempDir>>;
  const events: ProxyEvent[] = [];
  let written = "";

  beforeAll(async () => {
    upstream = await servePlanted(responses());
    temp = await tempDir();
    const recorder = await startRecorder({
      upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
      cassette: temp.file("planted.yaml"),
      onEvent: (event) => events.push(event),
    });
    await session(recorder.url);
    await recorder.close();
    // Everything written: every file, as text, plus the decoded bytes of base64 bodies.
    for (const file of await filesUnder(temp.dir)) written += `${await readFile(file, "utf8")}\n`;
    const cassette = await loadCassette(temp.file("planted.yaml"));
    for (const i of cassette.interactions) {
      for (const body of [i.request.body, i.response.body]) {
        if (body && "base64" in body) written += Buffer.from(body.base64, "base64").toString("utf8");
      }
    }
  });

  afterAll(async () => {
    await new Promise((resolve) => upstream.close(resolve));
    await temp.remove();
  });

  it("plants at least 60 secrets and records every exchange", async () => {
    expect(p.all.length).toBeGreaterThanOrEqual(60);
    const cassette = await loadCassette(temp.file("planted.yaml"));
    expect(cassette.interactions.length).toBe(31);
    expect(events.some((e) => e.kind === "upstream-error" && e.message.includes("/fail?"))).toBe(true);
  });

  it("writes none of them anywhere: cassette, side files, base64 bodies", () => {
    const leaked = p.all.filter(({ value }) => forms(value).some((f) => written.includes(f)));
    expect(leaked.map((l) => l.where)).toEqual([]);
  });

  it("prints none of them in its events, failed exchanges included (a token learned from a response, then met in a failed exchange at once)", () => {
    const printed = events.map((e) => e.message).join("\n");
    const leaked = p.all.filter(({ value }) => forms(value).some((f) => printed.includes(f)));
    expect(leaked.map((l) => l.where)).toEqual([]);
    expect(printed).toContain("access_token=<secret:");
    expect(printed).toMatch(/\/fail\/<secret:[0-9a-f]{16}>\/x/);
    expect(printed).toContain(`/fail/${placeholderFor(learned)}`);
  });

  it("keeps the legal look-alikes: a payment state, an error code, country_code, an Expires date", () => {
    expect(written).toMatch(/country_code: FR/);
    expect(written).toMatch(/state: Authorized/);
    expect(written).toMatch(/code: E42/);
    expect(written).toContain("Expires=Wed, 21 Oct 2026 07:28:00 GMT");
    expect(written).toContain("<user>someone</user>");
  });

  it("replaces each by its stable placeholder, the same wherever it appears", () => {
    const byWhere = new Map(p.all.map((s) => [s.where, s.value]));
    for (const where of [
      "form password",
      "query token",
      "X-Access-Token",
      "Location query",
      "JWT inside a string",
    ]) {
      const value = byWhere.get(where) ?? "";
      expect(written, where).toContain(placeholderFor(value));
    }
  });
});
