import { link, symlink } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCassette } from "../../proxy/index.js";
import { startCountingUpstream } from "../proxy/support/counting-upstream.js";
import { send, tempDir } from "../proxy/support/http.js";
import { runCli, spawnRecorder } from "../proxy/support/recorder-process.js";

describe("two recorders never write one cassette, whatever names they are given", () => {
  let temp: Awaited<ReturnType<typeof tempDir>>;
  let upstream: Awaited<ReturnType<typeof startCountingUpstream>>;
  beforeAll(async () => {
    temp = await tempDir();
    upstream = await startCountingUpstream();
  });
  afterAll(async () => {
    await upstream.close();
    await temp.remove();
  });

  /** `record --mode new` on `cassette`, serving on any port. */
  const recordArgs = (cassette: string) => [
    "--upstream",
    upstream.url,
    "--cassette",
    cassette,
    "--mode",
    "new",
    "--port",
    "0",
  ];

  it("a second real recorder on a symbolic link, or on a hard link, to a cassette being recorded is refused", async () => {
    const cassette = temp.file("session.yaml");
    const first = await spawnRecorder(recordArgs(cassette));
    try {
      expect((await send(`${first.url}/v5/partners/me`)).status).toBe(200);
      const symbolic = temp.file("by-symlink.yaml");
      await symlink(cassette, symbolic);
      const second = await runCli(["record", ...recordArgs(symbolic)]);
      expect(second.code, second.stderr).toBe(2);
      expect(second.stderr).toContain(
        `error[conflict]: ${cassette}.lock: the cassette ${cassette} is being recorded by process ${first.child.pid}`,
      );
      const hard = temp.file("by-hardlink.yaml");
      await link(cassette, hard);
      const third = await runCli(["record", ...recordArgs(hard)]);
      expect(third.code, third.stderr).toBe(2);
      expect(third.stderr).toContain(`the cassette ${hard} has 2 names (hard links)`);
      expect((await send(`${first.url}/v5/partners/me?again=1`)).status).toBe(200);
    } finally {
      first.child.kill("SIGTERM");
      await first.exited;
    }
    // The first recorder's cassette loads: no id written twice.
    const loaded = await loadCassette(cassette);
    expect(loaded.interactions.map((i) => i.id)).toEqual([1, 2]);
  });

  it("a recorder alone on a symbolic link records into the file it names, and the cassette loads", async () => {
    const cassette = temp.file("real.yaml");
    const symbolic = temp.file("named.yaml");
    await symlink(cassette, symbolic);
    const recorder = await spawnRecorder(recordArgs(symbolic));
    expect((await send(`${recorder.url}/v5/partners/me`)).status).toBe(200);
    recorder.child.kill("SIGTERM");
    expect(await recorder.exited).toBe(0);
    expect((await loadCassette(cassette)).interactions).toHaveLength(1);
  });
});
