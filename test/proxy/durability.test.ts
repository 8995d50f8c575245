import { copyFile, mkdir, readdir } from "node:fs/promises";
import { request } from "node:http";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadCassette as readCassetteFile } from "../../proxy/cassette/reader.js";
import { loadCassette } from "../../proxy/index.js";
import { startRecorder } from "../../proxy/record/server.js";
import { blobUpstream } from "./support/blob-upstream.js";
import { upstreamAndTemp } from "./support/lifecycle.js";
import { loadClients, runCli, spawnRecorder, spawnServer } from "./support/recorder-process.js";

const CLIENTS = 200;

/** Asks `url` for each id, 16 at a time; the ids whose answer is a 200 naming that id. */
async function served(url: string, ids: readonly string[], size: number): Promise<Set<string>> {
  const ok = new Set<string>();
  const one = (id: string) =>
    new Promise<void>((resolve) => {
      request(`${url}/blob?id=${id}&size=${size}`, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () => {
          if (res.statusCode === 200 && text.startsWith(`{"id":"${id}"`)) ok.add(id);
          resolve();
        });
      })
        .on("error", () => resolve())
        .end();
    });
  const queue = [...ids];
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) await one(id);
    }),
  );
  return ok;
}

// The one end-to-end SIGKILL test: recovery itself is proved in-process on hand-made journals
// (journal-damage, journal-sealed, journal-huge, journal.test.ts).
describe("durable recording: SIGKILL with 200 concurrent clients, then a reader at once", () => {
  const files = upstreamAndTemp(blobUpstream);

  /** Records under load, SIGKILLs the recorder; a copy of what it left in each of `readers` folders. */
  const crash = async (size: number, target: number, readers: readonly string[]) => {
    const cassette = files.temp.file(`killed-${size}.yaml`);
    const recorder = await spawnRecorder([
      "--upstream",
      files.upstream.url,
      "--cassette",
      cassette,
      "--port",
      "0",
      "--quiet",
    ]);
    const load = loadClients(recorder.url, CLIENTS, size);
    while (load.completed.size < target) await new Promise((r) => setTimeout(r, 5));
    recorder.child.kill("SIGKILL");
    expect(await recorder.exited).toBe("SIGKILL");
    await load.stop();
    const left = (await readdir(files.temp.dir)).filter((n) => n.startsWith(`killed-${size}.yaml`));
    expect(left).toContain(`killed-${size}.yaml.journal`);
    const copies: Record<string, string> = {};
    for (const reader of readers) {
      const dir = files.temp.file(`${reader}-${size}`);
      await mkdir(dir);
      for (const name of left) await copyFile(files.temp.file(name), join(dir, name));
      copies[reader] = join(dir, `killed-${size}.yaml`);
    }
    return { completed: [...load.completed], copies };
  };

  // Neither journal is left: the open one, nor a sealed one (a kill under big bodies can leave both).
  const noJournal = async (cassette: string) =>
    expect((await readdir(join(cassette, ".."))).filter((n) => /\.journal(\.sealed)?$/.test(n))).toEqual([]);

  const missingFrom = async (cassette: string, completed: readonly string[]) => {
    const loaded = await readCassetteFile(cassette);
    expect(new Set(loaded.interactions.map((i) => i.id)).size).toBe(loaded.interactions.length);
    const recorded = new Set(loaded.interactions.map((i) => i.request.query?.id));
    return completed.filter((id) => !recorded.has(id)).length;
  };

  const readersServeEverything = (size: number, target: number) => async () => {
    const { completed, copies } = await crash(size, target, ["replay", "lint", "library", "restart"]);
    expect(completed.length).toBeGreaterThanOrEqual(target);
    // What the cassette alone held (what a reader that ignores the journal would serve).
    const alone = completed.length - (await missingFrom(copies.library as string, completed));
    console.log(
      `${size} B bodies: the cassette alone held ${alone} of the ${completed.length} completed exchanges`,
    );
    const all = { missing: 0, of: completed.length };

    // assopay replay, started at once: every exchange a client completed is served.
    const replayCassette = copies.replay as string;
    const replay = await spawnServer(["replay", "--cassette", replayCassette, "--port", "0"]);
    const answered = await served(replay.url, completed, size);
    replay.child.kill("SIGTERM");
    await replay.exited;
    expect({ missing: completed.length - answered.size, of: completed.length }).toEqual(all);
    expect(replay.output()).toMatch(/recovered \d+ exchange\(s\) into .* from the journal of a recorder/);
    await noJournal(replayCassette);
    expect({ missing: await missingFrom(replayCassette, completed), of: completed.length }).toEqual(all);

    // assopay lint: it judges the whole recording, and says it recovered it.
    const lintCassette = copies.lint as string;
    const lint = await runCli(["lint", lintCassette, "--reporter", "json"]);
    expect(lint.stderr).toMatch(/^recovered \d+ exchange\(s\) into /m);
    const report = JSON.parse(lint.stdout) as { interactions: unknown[] };
    expect(report.interactions.length).toBeGreaterThanOrEqual(completed.length);
    await noJournal(lintCassette);
    expect({ missing: await missingFrom(lintCassette, completed), of: completed.length }).toEqual(all);

    // The library's loader.
    const notices: string[] = [];
    const libraryCassette = copies.library as string;
    const loaded = await loadCassette(libraryCassette, { onNotice: (m) => notices.push(m) });
    const ids = new Set(loaded.interactions.map((i) => i.request.query?.id));
    expect({ missing: completed.filter((id) => !ids.has(id)).length, of: completed.length }).toEqual(all);
    expect(notices.some((m) => m.startsWith("recovered "))).toBe(true);
    await noJournal(libraryCassette);

    // The cassette alone loads: whole documents, each its own exchange's, at most a last one cut short.
    const restartCassette = copies.restart as string;
    const before = await readCassetteFile(restartCassette);
    expect(before.warnings.length).toBeLessThanOrEqual(1);
    expect(before.interactions.length).toBeLessThanOrEqual(files.upstream.asked.length);
    for (const i of before.interactions) {
      const b = i.response.body as { json?: { id?: string }; text?: string } | undefined;
      expect(b?.json?.id ?? /^\{"id":"([^"]*)"/.exec(b?.text ?? "")?.[1]).toBe(i.request.query?.id);
    }
    // The next start recovers the journal's exchanges first, then records on after them.
    const messages: string[] = [];
    const again = await startRecorder({
      upstream: files.upstream.url,
      cassette: restartCassette,
      mode: "new",
      onEvent: (e) => messages.push(e.message),
    });
    const recovered = Number(/^recovered (\d+) exchange/m.exec(messages.join("\n"))?.[1] ?? 0);
    await new Promise<void>((resolve) =>
      request(`${again.url}/blob?id=after&size=${size}`, (res) => res.resume().on("end", resolve)).end(),
    );
    await again.close();
    const reloaded = await readCassetteFile(restartCassette);
    expect(reloaded.interactions.length).toBe(before.interactions.length + recovered + 1);
    expect(reloaded.interactions.at(-1)?.request.query).toMatchObject({ id: "after" });
  };

  it(
    "2 KB bodies: replay, lint and the library's loader each serve every exchange a client completed",
    readersServeEverything(2048, 3000),
  );
  it(
    "300 KB bodies: replay, lint and the library's loader each serve every exchange a client completed",
    readersServeEverything(300 * 1024, 300),
  );
});
