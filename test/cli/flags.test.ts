import { describe, expect, it } from "vitest";
import {
  allowHostsFlag,
  dateFlag,
  parseFlags,
  portFlag,
  secondsFlag,
  seedFlag,
  wholeNumberFlag,
} from "../../cli/flags.js";
import { AssopayError } from "../../core/errors.js";
import { runCli } from "../support/run-cli.js";

/** The usage error a call throws: message and hint, for one assertion each. */
function refusal(call: () => unknown): { message: string; hint: string | undefined } {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(AssopayError);
    const { code, exitCode, message, hint } = error as AssopayError;
    expect([code, exitCode]).toEqual(["usage", 2]);
    return { message, hint };
  }
  throw new Error("expected a usage error, got none");
}

describe("cli/flags.ts: one parser per kind of value, the same words for every verb", () => {
  it("wholeNumberFlag refuses what is not a whole number in bounds, and takes the legal forms", () => {
    const entries = { verb: "sandbox", flag: "entries", min: 0, max: 1_000_000, example: 300 };
    for (const bad of ["lots", "-1", "1.5", "1e3", "0x10", "", " ", "1000001", "9007199254740993"]) {
      const { message, hint } = refusal(() => wholeNumberFlag(bad, entries));
      expect(message).toBe(
        `assopay sandbox: --entries must be a whole number from 0 to 1000000, got "${bad}"`,
      );
      expect(hint).toBe("for example --entries 300");
    }
    const above0 = { verb: "verify", flag: "max-entries", example: 10_000 };
    expect(refusal(() => wholeNumberFlag("0", above0)).message).toContain(
      '--max-entries must be a whole number above 0, got "0"',
    );
    expect(["0", "7", "007", " 42 ", "1000000"].map((ok) => wholeNumberFlag(ok, entries))).toEqual([
      0, 7, 7, 42, 1_000_000,
    ]);
    expect(wholeNumberFlag("1", above0)).toBe(1);
    expect(wholeNumberFlag(undefined, entries)).toBeUndefined();
  });

  it("secondsFlag refuses what is not a number of seconds above 0, and takes fractions", () => {
    const timeout = { verb: "notify", flag: "timeout", max: 600, example: 15 };
    for (const bad of ["0", "-5", "abc", "1e2", "0x1E", "", "601", "1.5s", "Infinity"]) {
      const { message, hint } = refusal(() => secondsFlag(bad, timeout));
      expect(message).toBe(
        `assopay notify: --timeout must be a number of seconds above 0 and at most 600, got "${bad}"`,
      );
      expect(hint).toBe("for example --timeout 15 (fractions allowed: 1.5)");
    }
    expect(refusal(() => secondsFlag("0", { verb: "verify", flag: "timeout", example: 30 })).message).toBe(
      'assopay verify: --timeout must be a number of seconds above 0, got "0"',
    );
    expect(["1", "1.5", ".5", "2.", " 30 ", "600"].map((ok) => secondsFlag(ok, timeout))).toEqual([
      1, 1.5, 0.5, 2, 30, 600,
    ]);
    expect(secondsFlag(undefined, timeout)).toBeUndefined();
  });

  it("portFlag refuses what is not a port, and takes 0 to 65535", () => {
    for (const bad of ["-1", "65536", "http", "80.5", ""]) {
      const { message, hint } = refusal(() => portFlag("replay", bad, 8471));
      expect(message).toBe(`assopay replay: --port must be a whole number from 0 to 65535, got "${bad}"`);
      expect(hint).toBe("use --port 0 to take any free port");
    }
    const receiver = refusal(() =>
      portFlag("verify", "70000", 0, "receiver-port", "for example --receiver-port 8787"),
    );
    expect(receiver.message).toContain('--receiver-port must be a whole number from 0 to 65535, got "70000"');
    expect(receiver.hint).toBe("for example --receiver-port 8787");
    expect(["0", "1", "8471", "65535"].map((ok) => portFlag("replay", ok, 8471))).toEqual([
      0, 1, 8471, 65_535,
    ]);
    expect(portFlag("replay", undefined, 8471)).toBe(8471);
  });

  it("dateFlag refuses what is not a calendar day, and takes every real one", () => {
    for (const bad of ["2025-13-01", "2025-02-30", "2025-6-15", "15/06/2025", "today", ""]) {
      const { message, hint } = refusal(() => dateFlag("lint", bad));
      expect(message).toBe(`assopay lint: --at must be a calendar day written YYYY-MM-DD, got "${bad}"`);
      expect(hint).toBe("for example --at 2025-06-15");
    }
    for (const ok of ["2025-06-15", "2024-02-29", "2025-12-31", "2000-01-01"])
      expect(dateFlag("lint", ok)).toBe(ok);
    expect(dateFlag("lint", undefined)).toBeUndefined();
  });

  it("allowHostsFlag reads every --allow-host as a comma-separated list, as people type them", () => {
    const argv = [
      "--allow-host",
      "box.lan, other.lan",
      "--allow-host",
      " tunnel.example ,",
      "--allow-host",
      "[::2]",
    ];
    const flags = parseFlags("sandbox", argv, "allow-host*");
    expect(allowHostsFlag(flags)).toEqual(["box.lan", "other.lan", "tunnel.example", "[::2]"]);
  });

  it("seedFlag refuses what is not a whole number from 0, with an example that is a seed", () => {
    for (const bad of ["abc", "-1", "1.5", "9007199254740992"]) {
      const { message, hint } = refusal(() => seedFlag("gate", bad));
      expect(message).toBe(
        `assopay gate: --seed must be a whole number from 0 to 9007199254740991, got "${bad}"`,
      );
      expect(hint).toBe("for example --seed 42: any whole number, the same one gives the same data");
    }
    expect(["0", "1", "42", "9007199254740991"].map((ok) => seedFlag("gate", ok))).toEqual([
      0,
      1,
      42,
      Number.MAX_SAFE_INTEGER,
    ]);
  });

  it.each([
    [
      ["sandbox", "--seed", "abc"],
      'assopay sandbox: --seed must be a whole number from 0 to 9007199254740991, got "abc"',
    ],
    [
      ["gate", "--timeout", "0", "--", "node", "-e", "0"],
      "assopay gate: --timeout must be a number of seconds above 0",
    ],
    [
      ["notify", "--to", "http://127.0.0.1:9/", "--key", "k", "--timeout", "1s"],
      "assopay notify: --timeout must be a number of seconds above 0",
    ],
    [["verify", "--timeout", "0"], 'assopay verify: --timeout must be a number of seconds above 0, got "0"'],
    [
      ["record", "--upstream", "http://127.0.0.1:9", "--cassette", "never-written.yaml", "--timeout", "0"],
      'assopay record: --timeout must be a number of seconds above 0 and at most 3600, got "0"',
    ],
    [["lint", "--at", "2025-13-01", "x.yaml"], "assopay lint: --at must be a calendar day"],
  ])("every verb says it the same way: %j", async (argv, message) => {
    const result = await runCli(argv);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr).toMatch(/\nhint: (for example|use) --/);
  });

  it("record's --timeout is in seconds like every verb's; a value in the old milliseconds says how to write it", async () => {
    const argv = ["record", "--upstream", "http://127.0.0.1:9", "--cassette", "never-written.yaml"];
    const result = await runCli([...argv, "--timeout", "30000"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      '--timeout must be a number of seconds above 0 and at most 3600, got "30000"',
    );
    expect(result.stderr).toContain("hint: --timeout takes seconds, as in every verb");
    expect(result.stderr).toContain("for 30000 ms write --timeout 30");
  });
});
