import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { notifyCommand, sandboxApi } from "../../cli/commands/notify.js";
import { loadContract } from "../../contracts/index.js";
import { packageRoot } from "../../core/paths.js";
import { type NotifyReport, runNotify } from "../../notify/run.js";
import { runVerb } from "../gate/run-verb.js";
import { startReceiver } from "./fixtures/kit.js";
import {
  anySecretReceiver,
  closedSchemaReceiver,
  failsRedeliveryReceiver,
  neverReadsReceiver,
  reconcilingReceiver,
  refusesUntrueReceiver,
  slowReceiver,
  type UnsignedFactory,
  viaOrderReceiver,
} from "./fixtures/unsigned.js";

// Receivers of unsigned notifications (associations): the URL secret, reading the API before
// acknowledging, redelivery, the service's wait, added fields. The API is a sandbox, as the CLI serves it.

const contract = loadContract();
const SECRET = "k9Vq2x7LwPz4";
const closers: (() => Promise<void>)[] = [];
let api: Awaited<ReturnType<typeof sandboxApi>>;

beforeAll(async () => {
  api = await sandboxApi(contract);
});
afterAll(async () => api.close());
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function judge(factory: UnsignedFactory, timeoutSeconds = 10, types?: string[]): Promise<NotifyReport> {
  const receiver = await startReceiver(factory(SECRET, api), `/hook/${SECRET}`);
  closers.push(receiver.close);
  return runNotify({
    to: receiver.url,
    urlSecret: SECRET,
    api,
    contract,
    timeoutSeconds,
    ...(types ? { types } : {}),
  });
}

const failed = (report: NotifyReport) => report.cases.filter((c) => c.verdict === "fail").map((c) => c.id);
const byId = (report: NotifyReport, id: string) => report.cases.find((c) => c.id === id);

describe("assopay notify, unsigned", () => {
  it("passes a receiver that checks its URL secret and reads the API before acknowledging", async () => {
    const report = await judge(reconcilingReceiver);
    expect(failed(report)).toEqual([]);
    expect(report.cases.map((c) => c.id)).toEqual([
      ...contract.notificationTypes.map((t) => `unsigned:${t.eventType}`),
      "unknown-type",
      "added-field",
      "forged:wrong-url-secret",
      "forged:missing-url-secret",
      "forged:unknown-payment",
      "forged:contradicted-state",
      "duplicate",
    ]);
    // What it read is the evidence: the payment the notification names, before its 200.
    const payment = byId(report, "unsigned:Payment");
    expect(payment?.evidence?.diagnostics?.[0]).toMatch(
      /read from the API first: .*GET \/v5\/payments\/\d+ → 200/,
    );
    expect(byId(report, "forged:unknown-payment")?.evidence?.diagnostics?.[0]).toMatch(
      /read from the API first: .*→ 404/,
    );
    expect(payment?.evidence?.request?.headers).not.toHaveProperty("x-ha-signature");
  });

  it("passes legal variants: confirming a payment through its order, refusing what the API contradicts", async () => {
    const viaOrder = await judge(viaOrderReceiver);
    expect(failed(viaOrder)).toEqual([]);
    expect(byId(viaOrder, "unsigned:Payment")?.evidence?.diagnostics?.[0]).toMatch(
      /read from the API first: .*GET \/v5\/orders\/\d+ → 200/,
    );
    const refusing = await judge(refusesUntrueReceiver);
    expect(failed(refusing)).toEqual([]);
    expect(byId(refusing, "forged:unknown-payment")?.reason).toMatch(
      /^refused after reading the API \(answered 400/,
    );
    expect(byId(refusing, "forged:contradicted-state")?.reason).toMatch(/^refused after reading the API/);
  });

  it("fails a receiver that never reads the API, on every notification naming a payment or an order", async () => {
    const report = await judge(neverReadsReceiver);
    expect(failed(report)).toEqual([
      "unsigned:Order",
      "unsigned:Payment",
      "added-field",
      "forged:unknown-payment",
      "forged:contradicted-state",
      "duplicate",
    ]);
    expect(new Set(report.cases.filter((c) => c.verdict === "fail").map((c) => c.rule))).toEqual(
      new Set(["notify.reconciles"]),
    );
    expect(byId(report, "unsigned:Payment")?.reason).toMatch(
      /^acknowledged \(it answered 200 .*\) without first reading GET \/v5\/payments\/\d+ or GET \/v5\/orders\/\d+/,
    );
    expect(report.diagnosis.join("\n")).toContain(
      "It acknowledges unsigned notifications without reading the API",
    );
    expect(report.diagnosis.join("\n")).not.toContain("It refuses a notification it has already seen");
  });

  it("fails a receiver that accepts any URL secret", async () => {
    const report = await judge(anySecretReceiver);
    expect(failed(report)).toEqual(["forged:wrong-url-secret", "forged:missing-url-secret"]);
    expect(byId(report, "forged:missing-url-secret")?.evidence?.request?.url).not.toContain(SECRET);
    expect(report.diagnosis.join("\n")).toContain("It accepts notifications at a URL without its secret");
  });

  it("fails a receiver that answers 500 to a redelivery, without --strict", async () => {
    const report = await judge(failsRedeliveryReceiver);
    expect(failed(report)).toEqual(["duplicate"]);
    expect(report.passed).toBe(false);
    expect(byId(report, "duplicate")).toMatchObject({
      rule: "notify.idempotent",
      reason: expect.stringContaining("the second delivery answered 500"),
    });
  });

  it("fails a receiver that answers after the service's wait, saying it was slow", async () => {
    // The receiver answers a minute late; the wait is a second: no machine is that slow.
    const report = await judge(slowReceiver, 1, ["Payment"]);
    expect(report.passed).toBe(false);
    expect(byId(report, "unsigned:Payment")?.reason).toContain(
      "was too slow: no answer within the service's wait of 1 s",
    );
    expect(report.diagnosis.join("\n")).toMatch(
      /^It is slow: \d+ of \d+ cases got no answer within the service's wait/m,
    );
    // The URL-secret cases are refused before the wait: they pass.
    expect(byId(report, "forged:wrong-url-secret")?.verdict).toBe("pass");
  });

  it("fails a receiver that refuses a field it does not know", async () => {
    const report = await judge(closedSchemaReceiver);
    expect(failed(report)).toEqual(["added-field"]);
    expect(byId(report, "added-field")).toMatchObject({
      rule: "notify.tolerates-added-fields",
      reason: expect.stringContaining("answered 400"),
    });
  });
});

/** A port nothing listens at now, for a receiver run as a command to take. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe("assopay notify, unsigned, with the receiver run as a command", () => {
  const script = join(packageRoot(), "test", "notify", "fixtures", "unsigned-receiver.mjs");

  it("serves it the API in its environment: exit 0 when it reads first, 1 when it never reads", async () => {
    const to = `http://127.0.0.1:${await freePort()}/hook/${SECRET}`;
    const good = await runVerb(notifyCommand, [
      "--to",
      to,
      "--url-secret",
      SECRET,
      "--types",
      "Order,Payment",
      "--",
      "node",
      script,
      SECRET,
    ]);
    expect(good.stderr).toBe("");
    expect(good.code).toBe(0);
    const bad = await runVerb(notifyCommand, [
      "--to",
      `http://127.0.0.1:${await freePort()}/hook/${SECRET}`,
      "--url-secret",
      SECRET,
      "--types",
      "Payment",
      "--",
      "node",
      script,
      SECRET,
      "--never-reads",
    ]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/✘ FAIL\s+unsigned:Payment/);
    expect(bad.stdout).toContain("read from the API first: nothing");
  });

  it("refuses an unsigned run without a command, a secret not in --to, and a command that never listens (exit 2)", async () => {
    const noCommand = await runVerb(notifyCommand, [
      "--to",
      `http://127.0.0.1:2/hook/${SECRET}`,
      "--url-secret",
      SECRET,
    ]);
    expect(noCommand.code).toBe(2);
    expect(noCommand.stderr).toContain(
      "an unsigned receiver is judged on reconciling each notification through the API",
    );
    const notInUrl = await runVerb(notifyCommand, [
      "--to",
      "http://127.0.0.1:2/hook/other",
      "--url-secret",
      SECRET,
    ]);
    expect(notInUrl.code).toBe(2);
    expect(notInUrl.stderr).toContain("--to must contain the URL secret");
    const neither = await runVerb(notifyCommand, ["--to", "http://127.0.0.1:2/hook"]);
    expect(neither.stderr).toContain("assopay notify: --key KEY or --url-secret");
    const exits = await runVerb(notifyCommand, [
      "--to",
      `http://127.0.0.1:${await freePort()}/hook/${SECRET}`,
      "--url-secret",
      SECRET,
      "--",
      "node",
      "-e",
      "console.error('no port for me'); process.exit(3)",
    ]);
    expect(exits.code).toBe(2);
    expect(exits.stderr).toContain("the receiver's command never listened");
    expect(exits.stderr).toContain("no port for me");
  });
});
