import { appendFile, copyFile, readdir, readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { loadCassette } from "../../proxy/cassette/reader.js";
import type { ProxyEvent } from "../../proxy/events.js";
import type { FrameMeta } from "../../proxy/record/journal.js";
import { Journal } from "../../proxy/record/journal.js";
import { versionsOf } from "../../proxy/record/plan.js";
import { startRecorder } from "../../proxy/record/server.js";
import { send } from "./support/http.js";
import { upstreamAndTemp } from "./support/lifecycle.js";
import { startUpstream } from "./support/upstream.js";

/** Journals `GET path` answered 200 with `body`, as the recorder does, with the id it would get. */
function journal(file: string, entries: { id: number; path: string; body: string }[]): Journal {
  const j = Journal.open(file);
  for (const { id, path, body } of entries) {
    const meta: FrameMeta = {
      id,
      startedAt: Date.parse("2026-11-23T12:00:00Z"),
      method: "GET",
      url: path,
      requestHeaders: { host: "x", authorization: "Bearer journal-secret-token" },
      status: 200,
      responseHeaders: { "content-type": "application/json" },
      notification: false,
    };
    j.append(JSON.stringify(meta), Buffer.alloc(0), [Buffer.from(body)]);
  }
  return j;
}

describe("the recording journal", () => {
  const files = upstreamAndTemp(startUpstream);

  const started = async (cassette: string, mode: "once" | "new" | "all") => {
    const events: ProxyEvent[] = [];
    const recorder = await startRecorder({
      upstream: files.upstream.url,
      cassette,
      mode,
      onEvent: (e) => events.push(e),
    });
    return { recorder, messages: () => events.map((e) => e.message) };
  };

  it("a clean stop leaves no journal, and the next start recovers nothing", async () => {
    const cassette = files.temp.file("clean.yaml");
    const first = await started(cassette, "once");
    await send(`${first.recorder.url}/counter`);
    await first.recorder.close();
    expect(await readdir(files.temp.dir)).toEqual(["clean.yaml"]);
    const again = await started(cassette, "new");
    await again.recorder.close();
    expect(again.messages().filter((m) => m.startsWith("recovered"))).toEqual([]);
  });

  it("the next start appends the journaled exchanges the cassette lacks, redacted, and drops a frame cut short", async () => {
    const cassette = files.temp.file("left.yaml");
    const first = await started(cassette, "once");
    await send(`${first.recorder.url}/counter`);
    await first.recorder.close();
    const j = journal(cassette, [
      { id: 1, path: "/counter", body: '{"hit":1}' },
      { id: 2, path: "/after?q=1", body: '{"later":true}' },
    ]);
    j.close(false);
    await appendFile(`${cassette}.journal`, Buffer.from([0x41, 0x4a, 0x30, 0x31, 9, 0, 0, 0]));
    const again = await started(cassette, "new");
    await again.recorder.close();
    expect(again.messages()).toContain(
      `recovered 1 exchange(s) into ${cassette} from the journal of a recorder that did not stop cleanly (a last frame cut short by the stop dropped: its client had no answer)`,
    );
    const loaded = await loadCassette(cassette);
    expect(loaded.interactions.map((i) => [i.id, i.request.path])).toEqual([
      [1, "/counter"],
      [2, "/after"],
    ]);
    expect(loaded.interactions[1]?.response.body).toEqual({ json: { later: true } });
    expect(await readFile(cassette, "utf8")).not.toContain("journal-secret-token");
    expect(await readdir(files.temp.dir)).not.toContain("left.yaml.journal");
  });

  it("an interrupted --mode all recording is finished at the next start, the old cassette kept as a version", async () => {
    const cassette = files.temp.file("swap.yaml");
    const first = await started(cassette, "once");
    await send(`${first.recorder.url}/counter`);
    await first.recorder.close();
    const old = await readFile(cassette);
    // What a recorder killed in mode all leaves: its .recording (header only here) and that file's journal.
    await copyFile(cassette, `${cassette}.recording`);
    journal(`${cassette}.recording`, [{ id: 2, path: "/new-one", body: "{}" }]).close(false);
    const again = await started(cassette, "once");
    await again.recorder.close();
    const [version] = await versionsOf(cassette);
    expect((await readFile(version as string)).equals(old)).toBe(true);
    expect((await loadCassette(cassette)).interactions.map((i) => i.request.path)).toEqual([
      "/counter",
      "/new-one",
    ]);
    expect(again.messages().some((m) => m.startsWith("finished the interrupted --mode all recording"))).toBe(
      true,
    );
    expect(
      (await readdir(files.temp.dir)).filter((n) => n.startsWith("swap.yaml.") && !n.includes("previous")),
    ).toEqual([]);
  });
});
