import { afterAll, describe, expect, it } from "vitest";
import { loadContract } from "../../contracts/index.js";
import { FETCH_BLOCKED_PORTS } from "../../notify/blocked-ports.js";
import { resolveNotifyOptions } from "../../notify/options.js";
import { runNotify } from "../../notify/run.js";
import { runCli } from "../support/run-cli.js";
import { correctReceiver } from "./fixtures/correct.js";
import { startReceiver } from "./fixtures/kit.js";

const KEY = "b6R1dy1zaWduaW5nLWtleS1vZi10aGUtdXJs";
const contract = loadContract();

describe("notify and the ports Node's fetch refuses (docs/bad-inputs.md)", () => {
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const close of closers) await close();
  });

  it("refuses --to on a port fetch blocks (1, 6000) up front, naming the port, exit 2", async () => {
    for (const port of [1, 6000, 10080]) {
      const result = await runCli(["notify", "--to", `http://127.0.0.1:${port}/hooks`, "--key", KEY]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(
        `error[usage]: assopay notify: --to uses port ${port}, one of the ports Node's fetch refuses`,
      );
      expect(result.stderr).toContain("hint: run the receiver on another port");
      expect(result.stdout).not.toContain("FAIL");
    }
  });

  it("lists exactly ports this Node's fetch refuses, and judges a receiver on an ordinary port", async () => {
    for (const port of FETCH_BLOCKED_PORTS) {
      const error = await fetch(`http://127.0.0.1:${port}/`).then(
        () => undefined,
        (e: unknown) => e as { cause?: { message?: string } },
      );
      expect(error?.cause?.message, `fetch refuses port ${port}`).toBe("bad port");
    }
    for (const to of ["http://127.0.0.1:3000/hooks", "https://example.org/hooks", "http://localhost:8080/"]) {
      expect(resolveNotifyOptions({ to, key: KEY, contract }).to).toBe(new URL(to).href);
    }
    const receiver = await startReceiver(correctReceiver(KEY));
    closers.push(receiver.close);
    const report = await runNotify({ to: receiver.url, key: KEY, contract, timeoutSeconds: 5, strict: true });
    expect(report.cases.filter((c) => c.verdict === "fail")).toEqual([]);
  });
});
