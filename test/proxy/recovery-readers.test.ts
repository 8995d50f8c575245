import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, statSync } from "node:fs";
import { chmod, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import nock from "nock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isAssopayError } from "../../core/errors.js";
import { packageRoot } from "../../core/paths.js";
import { loadCassette as readCassetteFile } from "../../proxy/cassette/reader.js";
import { loadCassette } from "../../proxy/index.js";
import { loadCassetteIntoNock } from "../../proxy/nock.js";
import { startRecorder } from "../../proxy/record/server.js";
import { send, tempDir } from "./support/http.js";
import { emptyCassette, journalItems } from "./support/journals.js";
import { runCli } from "./support/recorder-process.js";
import { startUpstream } from "./support/upstream.js";

const TEN = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
/** The unprivileged user the read-only test runs the reader as (the tests run as root, whom modes do not stop). */
const NOBODY = 65534;

/**
 * Whether the tests can run a reader as nobody: as root, and only where nobody may reach the checkout
 * (a clone inside a private temporary folder is out of its reach, and so are these two tests).
 */
function nobodyCanRun(): boolean {
  if (process.getuid?.() !== 0) return false;
  const probe = spawnSync(process.execPath, ["-e", "0"], {
    cwd: packageRoot(),
    uid: NOBODY,
    gid: NOBODY,
    stdio: "ignore",
  });
  return probe.status === 0 && accessibleToOthers(packageRoot());
}

/** Every folder from the root down to `dir` lets others in (mode o+x). */
function accessibleToOthers(dir: string): boolean {
  for (let at = dir; ; at = dirname(at)) {
    if ((statSync(at).mode & 0o001) === 0) return false;
    if (dirname(at) === at) return true;
  }
}

/** Whether this file system lets root make a folder immutable (`chattr +i`): root cannot write there. */
function canFreeze(dir: string): boolean {
  const probe = join(dir, "freeze-probe");
  mkdirSync(probe);
  const frozen = spawnSync("chattr", ["+i", probe], { stdio: "ignore" }).status === 0;
  if (frozen) spawnSync("chattr", ["-i", probe], { stdio: "ignore" });
  rmSync(probe, { recursive: true });
  return frozen;
}

describe("every reader recovers first, or serves in memory and says so", () => {
  let temp: Awaited<ReturnType<typeof tempDir>>;
  beforeAll(async () => {
    temp = await tempDir();
    // Others may enter the folder (the read-only test runs a reader as another user).
    await chmod(temp.dir, 0o755);
  });
  afterAll(() => temp.remove());

  const items = (c: { interactions: readonly { request: { query?: Record<string, unknown> } }[] }) =>
    c.interactions.map((i) => Number(i.request.query?.n));

  it.runIf(nobodyCanRun())(
    "a read-only folder: lint serves the cassette and the journal's exchanges redacted in memory, says so, and writes nothing",
    async () => {
      const cassette = temp.file("readonly.yaml");
      await emptyCassette(cassette);
      journalItems(cassette, TEN);
      await chmod(`${cassette}.journal`, 0o644);
      const before = await readFile(cassette);
      // The folder is root's, mode 0755: the reader, run as nobody, may read it but not write in it.
      const lint = await runCli(["lint", cassette, "--reporter", "json"], NOBODY);
      expect(lint.stderr).toContain(`serving 10 exchange(s) from ${cassette}.journal redacted in memory`);
      expect(lint.stderr).toContain("the journal stays until");
      const report = JSON.parse(lint.stdout) as { interactions: { id: number }[] };
      expect(report.interactions.map((i) => i.id)).toEqual(TEN);
      expect(lint.stdout).not.toContain("journal-secret-token");
      expect((await readFile(cassette)).equals(before)).toBe(true);
      expect(await readdir(temp.dir)).toContain("readonly.yaml.journal");
    },
  );

  it.runIf(process.getuid?.() === 0 && canFreeze(tmpdir()))(
    "a folder root may not write in (immutable): the library's loader serves the journal in memory, says so, and writes nothing",
    async () => {
      const folder = temp.file("frozen");
      mkdirSync(folder);
      const cassette = join(folder, "frozen.yaml");
      await emptyCassette(cassette);
      journalItems(cassette, TEN);
      const before = await readFile(cassette);
      expect(spawnSync("chattr", ["+i", folder]).status).toBe(0);
      try {
        const notices: string[] = [];
        const loaded = await loadCassette(cassette, { onNotice: (m) => notices.push(m) });
        expect(items(loaded)).toEqual(TEN);
        expect(notices.join("\n")).toContain(
          `serving 10 exchange(s) from ${cassette}.journal redacted in memory`,
        );
        expect(JSON.stringify(loaded)).not.toContain("journal-secret-token");
      } finally {
        spawnSync("chattr", ["-i", folder]);
      }
      expect((await readFile(cassette)).equals(before)).toBe(true);
      expect(await readdir(folder)).toContain("frozen.yaml.journal");
    },
  );

  it.runIf(nobodyCanRun())(
    "a journal the reader cannot even read: exit 2, naming the command that recovers, never a part served",
    async () => {
      const cassette = temp.file("unreadable.yaml");
      await emptyCassette(cassette);
      journalItems(cassette, TEN); // mode 0600, root's: nobody cannot read it
      const lint = await runCli(["lint", cassette], NOBODY);
      expect(lint.code).toBe(2);
      expect(lint.stderr).toContain("cannot be read");
      expect(lint.stderr).toMatch(
        /hint: run assopay lint .*unreadable\.yaml as a user who may read the journal/,
      );
      expect(lint.stdout).toBe("");
    },
  );

  it("a live recorder holds the lock: the reader serves its journal's exchanges in memory, and leaves journal and lock alone", async () => {
    const cassette = temp.file("live.yaml");
    await emptyCassette(cassette);
    journalItems(cassette, TEN);
    // What a running recorder leaves on disk: its lock, naming a process that runs (this one).
    await writeFile(`${cassette}.lock`, `${process.pid}\n`);
    const notices: string[] = [];
    const loaded = await loadCassette(cassette, { onNotice: (m) => notices.push(m) });
    expect(items(loaded)).toEqual(TEN);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain(`serving 10 exchange(s) from ${cassette}.journal redacted in memory`);
    expect(notices[0]).toContain(`is being recorded by process ${process.pid}`);
    expect(JSON.stringify(loaded)).not.toContain("journal-secret-token");
    expect(items(await readCassetteFile(cassette))).toEqual([]);
    expect(await readdir(temp.dir)).toEqual(expect.arrayContaining(["live.yaml.journal", "live.yaml.lock"]));
  });

  it("a real recorder still running: a reader sees every exchange it has answered; the recorder then stops cleanly", async () => {
    const upstream = await startUpstream();
    try {
      const cassette = temp.file("running.yaml");
      const recorder = await startRecorder({ upstream: upstream.url, cassette, mode: "new" });
      for (let n = 1; n <= 20; n++) expect((await send(`${recorder.url}/counter?n=${n}`)).status).toBe(200);
      const loaded = await loadCassette(cassette, { onNotice: () => undefined });
      expect(items(loaded)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      await recorder.close();
      expect(items(await readCassetteFile(cassette))).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      expect((await readdir(temp.dir)).filter((n) => n.startsWith("running.yaml."))).toEqual([]);
    } finally {
      await upstream.close();
    }
  });

  it("the nock entry recovers first: it serves the journal's exchanges, and no journal is left", async () => {
    // nock is imported before node:http is first imported here, so the requests below reach it.
    nock.disableNetConnect();
    const cassette = temp.file("nock.yaml");
    await emptyCassette(cassette);
    journalItems(cassette, TEN);
    const stderr = process.stderr.write;
    const said: string[] = [];
    process.stderr.write = ((chunk: string) => said.push(String(chunk)) > 0) as typeof process.stderr.write;
    let mocked: Awaited<ReturnType<typeof loadCassetteIntoNock>>;
    try {
      mocked = await loadCassetteIntoNock(cassette, { baseUrl: "http://api.assopay.test" });
    } finally {
      process.stderr.write = stderr;
    }
    try {
      const reply = await send("http://api.assopay.test/item?n=7");
      expect(reply.status).toBe(200);
      expect(JSON.parse(reply.text)).toEqual({ item: 7, pad: "" });
      expect(mocked.misses).toEqual([]);
    } finally {
      mocked.restore();
      nock.enableNetConnect();
    }
    expect(said.join("")).toMatch(/^recovered 10 exchange\(s\) into /);
    expect(await readdir(temp.dir)).not.toContain("nock.yaml.journal");
  });

  it("an unfinished --mode all recording beside the cassette is said, not silently left out", async () => {
    const cassette = temp.file("swap.yaml");
    await emptyCassette(cassette);
    const notices: string[] = [];
    await loadCassette(cassette, { onNotice: (m) => notices.push(m) });
    expect(notices).toEqual([]);
    await emptyCassette(`${cassette}.recording`);
    await loadCassette(cassette, { onNotice: (m) => notices.push(m) });
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain(`${cassette}.recording holds a --mode all recording of this cassette`);
  });

  it("a cassette recorded with a salt, read without it: exit 2 naming the variable; with it, recovered", async () => {
    const cassette = temp.file("salted.yaml");
    await emptyCassette(cassette, true);
    journalItems(cassette, TEN);
    const refused = await loadCassette(cassette, { secretSalt: undefined, onNotice: () => undefined }).then(
      () => undefined,
      (e: unknown) => e,
    );
    if (process.env.ASSOPAY_CASSETTE_SALT === undefined) {
      expect(isAssopayError(refused) && refused.exitCode).toBe(2);
      expect(isAssopayError(refused) && refused.hint).toContain("set ASSOPAY_CASSETTE_SALT");
    }
    const loaded = await loadCassette(cassette, { secretSalt: "the-salt", onNotice: () => undefined });
    expect(items(loaded)).toEqual(TEN);
  });

  it("a cassette recorded without a salt is recovered without one, even when a salt is at hand", async () => {
    const texts: string[] = [];
    for (const salt of [undefined, "a-salt-it-was-not-recorded-with"]) {
      const cassette = temp.file(`unsalted-${texts.length}.yaml`);
      await emptyCassette(cassette);
      journalItems(cassette, TEN);
      await loadCassette(cassette, { secretSalt: salt, onNotice: () => undefined });
      texts.push((await readFile(cassette, "utf8")).replace(/unsalted-\d/g, "unsalted"));
    }
    expect(texts[0]).toContain("authorization");
    expect(texts[1]).toBe(texts[0]);
  });

  it("no reader loads a cassette file without recovering first: only recovery reads it raw", async () => {
    const { readdir: list, readFile: read } = await import("node:fs/promises");
    const importsRawLoader = /import\s*\{[^}]*\bloadCassette\b[^}]*\}\s*from\s*"[^"]*cassette\/reader\.js"/;
    const reexportsIt = /export\s*\{[^}]*\bloadCassette\b[^}]*\}\s*from\s*"[^"]*cassette\/reader\.js"/;
    const found: string[] = [];
    for (const room of [
      "proxy",
      "specs",
      "gate",
      "cli",
      "notify",
      "sandbox",
      "contracts",
      "core",
      "report",
    ]) {
      for (const name of await list(room, { recursive: true })) {
        if (!name.endsWith(".ts")) continue;
        const text = await read(`${room}/${name}`, "utf8");
        if (importsRawLoader.test(text) || reexportsIt.test(text)) found.push(`${room}/${name}`);
      }
    }
    expect(found.sort()).toEqual([
      "proxy/load-cassette.ts",
      "proxy/record/plan.ts",
      "proxy/record/recover.ts",
    ]);
  });
});
