import { createHmac } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { notifyCommand } from "../../cli/commands/notify.js";
import { packageRoot } from "../../core/paths.js";
import { runVerb } from "../gate/run-verb.js";
import { answer, readRaw, startReceiver } from "./fixtures/kit.js";

// `notify --cassette`: the notifications a recorded session received, in their order, re-signed.

const CASSETTE = join(packageRoot(), "recordings", "notification.yaml");
const KEY = "the-receivers-own-signing-key";
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** The notification documents' stored bodies, read here from the YAML, apart from the tool's reader. */
function recordedBodies(): string[] {
  return parseAllDocuments(readFileSync(CASSETTE, "utf8"))
    .map(
      (d) => d.toJS() as { notification?: unknown; request?: { body?: { json?: unknown; text?: string } } },
    )
    .filter((d) => d.notification !== undefined)
    .map((d) => d.request?.body?.text ?? JSON.stringify(d.request?.body?.json));
}

async function capturing(status: number) {
  const got: { body: Buffer; signature: string | undefined }[] = [];
  const receiver = await startReceiver(async (req, res) => {
    const signature = req.headers["x-ha-signature"];
    got.push({ body: await readRaw(req), signature: typeof signature === "string" ? signature : undefined });
    answer(res, status, "ok");
  });
  closers.push(receiver.close);
  return { url: receiver.url, got };
}

describe("assopay notify --cassette", () => {
  it("sends the cassette's redacted bodies in their order, byte for byte, signed with the given key", async () => {
    const bodies = recordedBodies();
    expect(bodies.length).toBeGreaterThanOrEqual(2);
    const receiver = await capturing(204);
    const run = await runVerb(notifyCommand, ["--to", receiver.url, "--key", KEY, "--cassette", CASSETTE]);
    expect(run.code).toBe(0);
    expect(receiver.got.map((g) => g.body.toString("utf8"))).toEqual(bodies);
    for (const g of receiver.got) {
      expect(g.signature).toBe(createHmac("sha256", Buffer.from(KEY, "utf8")).update(g.body).digest("hex"));
    }
    expect(run.stdout).toMatch(/✔ pass\s+recorded:4 +accepted \(204\)\n✔ pass\s+recorded:5 /);
  });

  it("judges each one: a receiver that refuses them fails on every recorded case", async () => {
    const receiver = await capturing(401);
    const run = await runVerb(notifyCommand, ["--to", receiver.url, "--key", KEY, "--cassette", CASSETTE]);
    expect(run.code).toBe(1);
    expect(run.stdout.match(/✘ FAIL\s+recorded:\d+ /g)?.length).toBe(recordedBodies().length);
  });

  it("refuses a cassette without notifications (exit 2)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "notify-cassette-"));
    const file = join(dir, "none.yaml");
    const text = readFileSync(CASSETTE, "utf8").split(/^---$/m);
    // The header and the first (token) document only.
    writeFileSync(file, `${text.slice(0, 3).join("---")}`);
    const run = await runVerb(notifyCommand, [
      "--to",
      "http://127.0.0.1:2/hook",
      "--key",
      KEY,
      "--cassette",
      file,
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("holds no notification");
  });
});
