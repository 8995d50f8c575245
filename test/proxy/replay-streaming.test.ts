import { appendFile, writeFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { collectGarbage } from "../../core/collect.js";
import { AssopayError } from "../../core/errors.js";
import type { LoadedInteraction } from "../../proxy/cassette/format.js";
import { loadCassette, openCassette } from "../../proxy/load-cassette.js";
import { startReplay } from "../../proxy/replay/server.js";
import { writeCassette } from "./support/cassettes.js";
import { send } from "./support/http.js";
import { cassetteFixture } from "./support/lifecycle.js";

// Replay streams a cassette into its index, one document at a time, instead of loading it whole first:
// the parsed documents die young, and loading 100,000 interactions never holds them all.
const ITEMS = "/v5/organizations/asso/forms/Event/gala/items";
const PAGES = 600;

function crawl() {
  return Array.from({ length: PAGES }, (_, n) => ({
    path: ITEMS,
    query: { continuationToken: `token-${n}` },
    body: {
      json: { data: Array.from({ length: 20 }, (_, i) => ({ id: n * 100 + i, note: "x".repeat(80) })) },
    },
  }));
}

/** A weak reference to an interaction's parsed response body. */
function bodyOf(interaction: LoadedInteraction): WeakRef<object> {
  const body = interaction.response.body;
  return new WeakRef((body && "json" in body ? body.json : {}) as object);
}

describe("replay streams its cassettes", () => {
  const fixture = cassetteFixture(crawl);

  it("hands each interaction over as it is read, so the first is garbage before the last is read", async () => {
    const opened = await openCassette(fixture.file);
    expect(opened.cassette.header.upstream).toBe("https://api.helloasso-sandbox.com/");
    let first: WeakRef<object> | undefined;
    let firstAlive: boolean | undefined;
    let count = 0;
    await opened.read((interaction) => {
      count++;
      if (count === 1) first = bodyOf(interaction);
      if (count === PAGES) {
        collectGarbage();
        firstAlive = first?.deref() !== undefined;
      }
    });
    expect([count, firstAlive]).toEqual([PAGES, false]);
    expect(opened.cassette.interactions).toEqual([]);
  });

  it("whereas a loaded cassette holds every parsed document until it is dropped", async () => {
    const cassette = await loadCassette(fixture.file);
    const [first] = cassette.interactions;
    if (!first) throw new Error("no interaction");
    const ref = bodyOf(first);
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
    expect([cassette.interactions.length, ref.deref() !== undefined]).toEqual([PAGES, true]);
  });

  it("serves what it streamed, and reports an incomplete last document once read", async () => {
    const cut = fixture.temp.file("cut.yaml");
    await writeCassette(cut, crawl().slice(0, 3));
    await appendFile(cut, "---\nid: 99\nrecordedAt: x\n");
    const warnings: string[] = [];
    const replay = await startReplay({
      cassettes: cut,
      onEvent: (event) => {
        if (event.kind === "warning") warnings.push(event.message);
      },
    });
    try {
      const reply = await send(`${replay.url}${ITEMS}?continuationToken=token-2`);
      expect([
        replay.interactions,
        reply.status,
        (reply.json() as { data: { id: number }[] }).data[0]?.id,
      ]).toEqual([3, 200, 200]);
      expect(replay.warnings).toEqual([expect.stringMatching(/cut\.yaml:\d+: incomplete document/)]);
      expect(warnings).toEqual(replay.warnings);
    } finally {
      await replay.close();
    }
  });

  it("refuses a bad document met while streaming, naming its fixture.file and line", async () => {
    const bad = fixture.temp.file("bad.yaml");
    await writeCassette(bad, crawl().slice(0, 2));
    await appendFile(bad, "---\nid: 3\nrecordedAt: x\nrequest: 12\n...\n");
    const failed = await startReplay({ cassettes: bad }).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(AssopayError);
    expect((failed as AssopayError).message).toMatch(/interaction does not match the cassette schema/);
    expect((failed as AssopayError).location?.file).toBe(bad);
  });

  it("refuses a fixture.file that is not a cassette before reading past its first document", async () => {
    const notes = fixture.temp.file("notes.yaml");
    await writeFile(notes, "title: my notes\n");
    await expect(openCassette(notes)).rejects.toThrow(AssopayError);
  });
});
