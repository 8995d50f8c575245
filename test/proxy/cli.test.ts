import { readFile, writeFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import type { Command } from "../../cli/command.js";
import { recordCommand } from "../../cli/commands/record.js";
import { replayCommand } from "../../cli/commands/replay.js";
import { formatError, isAssopayError } from "../../core/errors.js";
import { writeCassette } from "./support/cassettes.js";
import { send } from "./support/http.js";
import { startVerb, untilPrinted } from "./support/in-process.js";
import { upstreamAndTemp } from "./support/lifecycle.js";
import { startUpstream } from "./support/upstream.js";

/** Runs a command until `whileRunning` is done, then aborts it as SIGINT would; returns what main prints. */
async function run(command: Command, argv: string[], whileRunning?: (out: () => string) => Promise<void>) {
  const verb = startVerb(command, argv);
  let code: number;
  try {
    if (whileRunning) {
      await untilPrinted(verb, "listening on");
      await whileRunning(verb.stdout);
    }
    verb.stop();
    code = await verb.running;
  } catch (error) {
    if (!isAssopayError(error)) throw error;
    return { code: error.exitCode, stdout: verb.stdout(), stderr: `${formatError(error)}\n` };
  }
  return { code, stdout: verb.stdout(), stderr: verb.stderr() };
}

const urlIn = (text: string) => /listening on (http:\/\/[^\s,]+)/.exec(text)?.[1] ?? "";

describe("assopay record and assopay replay", () => {
  const files = upstreamAndTemp(startUpstream);

  it("documents every flag in --help", () => {
    for (const flag of [
      "--upstream",
      "--cassette",
      "--port",
      "--mode",
      "--redact-pii",
      "--notify-forward",
      "--max-body",
      "ASSOPAY_CASSETTE_SALT",
    ]) {
      expect(recordCommand.help).toContain(flag);
    }
    for (const flag of ["--cassette", "--port", "--at", "ASSOPAY_CASSETTE_SALT", "501"])
      expect(replayCommand.help).toContain(flag);
  });

  it("records until stopped, printing where it listens and what it wrote", async () => {
    const cassette = files.temp.file("cli.yaml");
    const result = await run(
      recordCommand,
      ["--upstream", files.upstream.url, "--cassette", cassette, "--port", "0"],
      async (out) => {
        expect((await send(`${urlIn(out())}/counter`)).status).toBe(200);
      },
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^assopay record: listening on http:\/\/127\.0\.0\.1:\d+ → http:\/\/127\.0\.0\.1:\d+, recording to .*cli\.yaml \(mode once\)\n/,
    );
    expect(result.stdout).toContain("/__assopay/notifications\n");
    expect(result.stdout).toMatch(/assopay record: stopped; 1 interaction\(s\) written to .*cli\.yaml\n$/);
    expect(result.stderr).toBe("  recorded #1: GET /counter → 200\n");
  });

  it("replays until stopped, and reports misses on stderr", async () => {
    const cassette = files.temp.file("cli.yaml");
    const result = await run(
      replayCommand,
      ["--cassette", cassette, "--port", "0", "--at", "2025-07-01"],
      async (out) => {
        expect((await send(`${urlIn(out())}/counter`)).json()).toMatchObject({ hit: 1 });
        expect((await send(`${urlIn(out())}/nothing`)).status).toBe(501);
      },
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^assopay replay: listening on http:\/\/127\.0\.0\.1:\d+, 1 interaction\(s\) from 1 cassette\(s\) as of 2025-07-01\n/,
    );
    expect(result.stderr).toBe(
      "  GET /counter → 200 (cli.yaml:11)\n  no recorded request matches GET /nothing; the closest differs in path\n",
    );
  });

  it("refuses bad usage with exit 2 and a hint", async () => {
    expect((await run(recordCommand, ["--cassette", "x.yaml"])).stderr).toBe(
      "error[usage]: assopay record: --upstream is required\nhint: for example --upstream https://api.helloasso-sandbox.com\n",
    );
    expect((await run(recordCommand, ["--upstream", "ftp://x", "--cassette", "x.yaml"])).stderr).toContain(
      'error[usage]: --upstream must use http:// or https://, got "ftp:"',
    );
    expect(
      (
        await run(recordCommand, [
          "--upstream",
          files.upstream.url,
          "--cassette",
          "x.yaml",
          "--mode",
          "sometimes",
        ])
      ).code,
    ).toBe(2);
    expect((await run(replayCommand, [])).stderr).toContain(
      "error[usage]: assopay replay: --cassette is required",
    );
    expect((await run(replayCommand, ["--cassette", "x.yaml", "--at", "July"])).stderr).toContain(
      "--at must be a calendar day",
    );
  });

  it("reports a malformed cassette with its file and line, exit 2", async () => {
    const bad = files.temp.file("bad.yaml");
    await writeCassette(bad, [{ path: "/x", body: { json: { ok: true } } }]);
    await writeFile(bad, (await readFile(bad, "utf8")).replace("status: 200", "status: 999"));
    const result = await run(replayCommand, ["--cassette", bad, "--port", "0"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `error[bad-cassette]: ${bad}:19: the interaction does not match the cassette schema: response.status 999 is not a final HTTP status (100 or 200–599)\nhint: the recorder never stores such a status: correct it, or remove this interaction (from its '---' to its '...')\n`,
    );
  });
});
