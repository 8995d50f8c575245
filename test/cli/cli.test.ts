import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { verbs } from "../../cli/registry.js";
import { packageRoot, packageVersion } from "../../core/paths.js";
import { cliNodeArgs } from "../support/cli-entry.js";
import { runCli } from "../support/run-cli.js";

describe("assopay", () => {
  it("--help lists every verb", async () => {
    const result = await runCli(["--help"]);
    expect(result.code).toBe(0);
    for (const verb of ["verify", "sandbox", "record", "replay", "gate", "notify", "contracts"])
      expect(result.stdout).toMatch(new RegExp(`^  ${verb} `, "m"));
  });

  it("--version prints the package version", async () => {
    expect((await runCli(["--version"])).stdout).toBe(`${packageVersion()}\n`);
  });

  it("an unknown verb is a usage error with a suggestion, exit 2", async () => {
    const result = await runCli(["verfy"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('error[usage]: unknown verb "verfy"\nhint: did you mean verify?\n');
  });

  it("each verb of the registry loads the command of its own name (the table the compiler does not check)", async () => {
    for (const verb of verbs()) expect((await verb.load()).name).toBe(verb.name);
  });

  it("every verb answers --help", async () => {
    const verbs = (await runCli(["--help"])).stdout.match(/^ {2}([a-z]+) /gm)?.map((v) => v.trim()) ?? [];
    expect(verbs.length).toBeGreaterThan(5);
    for (const verb of verbs) {
      const result = await runCli([verb, "--help"]);
      expect(result.code, verb).toBe(0);
      expect(result.stdout, verb).toContain(`assopay ${verb}`);
    }
  });

  it("--help after -- belongs to the command a verb runs, not to the verb", async () => {
    const result = await runCli(["contracts", "--", "--help"]);
    expect(result.stdout).not.toContain("Usage: assopay contracts");
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("assopay contracts: Unexpected argument '--help'");
  });

  it("an unknown flag is a usage error naming the verb, exit 2", async () => {
    const result = await runCli(["contracts", "--frobnicate"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error\[usage\]: assopay contracts: Unknown option '--frobnicate'/);
    expect(result.stderr).toContain("hint: run 'assopay contracts --help'");
  });

  it("a bad --at is a usage error with an example", async () => {
    const result = await runCli(["contracts", "--check", "--at", "2025-13-01"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--at must be a calendar day written YYYY-MM-DD, got "2025-13-01"');
  });

  it("the installed entry point runs as a process and returns the exit code", () => {
    const run = spawnSync(process.execPath, [...cliNodeArgs(), "contracts", "--check"], {
      cwd: packageRoot(),
      encoding: "utf8",
    });
    expect(run.stdout).toContain("Pact files in");
    expect(run.status).toBe(0);
  });
});

describe("assopay: mistakes are messages, never stack traces", () => {
  it.each([
    [["sandbox", "--port", "-1"], /--port must be a whole number from 0 to 65535, got "-1"/],
    [
      ["verify", "--request-timeout", "-5"],
      /--request-timeout must be a number of seconds above 0, got "-5"/,
    ],
  ])("a negative number reaches the verb's own check: %j", async (argv, message) => {
    const result = await runCli(argv);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toContain("ambiguous");
  });

  it("a number that is not negative but starts with a dash elsewhere is left to the parser", async () => {
    const result = await runCli(["verify", "--only", "-x"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error\[usage\]: assopay verify:/);
  });

  it.each([
    [["verify", "--reporter", "json", "--at", "2025-13-01"]],
    [["verify", "--reporter=json", "--planned", "maybe"]],
  ])("with a JSON report asked, a mistake is also a JSON document on stdout: %j", async (argv) => {
    const result = await runCli(argv);
    expect(result.code).toBe(2);
    const document = JSON.parse(result.stdout) as {
      tool: string;
      error: { code: string; message: string };
      exitCode: number;
    };
    expect(document).toMatchObject({ tool: "assopay verify", error: { code: "usage" }, exitCode: 2 });
    expect(result.stderr).toContain(document.error.message);
  });

  it("a pretty report's mistake stays text only", async () => {
    const result = await runCli(["verify", "--at", "2025-13-01"]);
    expect(result.stdout).toBe("");
  });

  it("a fault of assopay itself is one line and a hint; the stack only with ASSOPAY_DEBUG=1", async () => {
    const { main } = await import("../../cli/main.js");
    const { captureStream } = await import("../support/streams.js");
    const run = async (env: Record<string, string>) => {
      const stderr = captureStream();
      // A context whose env getter throws inside the verb: a fault no input explains.
      const code = await main(["verify", "--at", "2025-01-01", "--only", "versions"], {
        stdout: captureStream().stream,
        stderr: stderr.stream,
        env: new Proxy(env, {
          get: (target, key) => {
            if (key === "ASSOPAY_TARGET") throw new Error("boom inside assopay");
            return target[key as string];
          },
        }),
        signal: new AbortController().signal,
      });
      return { code, stderr: stderr.text() };
    };
    const plain = await run({});
    expect(plain.code).toBe(2);
    expect(plain.stderr).toMatch(/^error\[internal\]: boom inside assopay\nhint: this is a fault of assopay/);
    expect(plain.stderr).not.toMatch(/\n\s+at /);
    const debug = await run({ ASSOPAY_DEBUG: "1" });
    expect(debug.stderr).toMatch(/\n\s+at /);
  });
});
