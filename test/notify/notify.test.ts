import { createHmac } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { notifyCommand } from "../../cli/commands/notify.js";
import { loadContract } from "../../contracts/index.js";
import { isAssopayError } from "../../core/errors.js";
import { signNotification as sign } from "../../core/notification-signature.js";
import { buildBattery } from "../../notify/cases.js";
import { serialise } from "../../notify/raw-forms.js";
import { type NotifyReport, runNotify } from "../../notify/run.js";
import { runVerb } from "../gate/run-verb.js";
import { REFUSING_URL } from "../support/refused.js";
import {
  acceptsForgedReceiver,
  crashOnUnknownReceiver,
  rejectsDuplicatesReceiver,
  reserialisingReceiver,
  uppercaseOnlyReceiver,
} from "./fixtures/buggy.js";
import { correctReceiver } from "./fixtures/correct.js";
import { type ReceiverFactory, startReceiver } from "./fixtures/kit.js";

const contract = loadContract();
const KEY = "b6R1dy1zaWduaW5nLWtleS1vZi10aGUtdXJs";
const closers: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function battery(factory: ReceiverFactory, strict = true): Promise<NotifyReport> {
  const receiver = await startReceiver(factory(KEY));
  closers.push(receiver.close);
  return runNotify({ to: receiver.url, key: KEY, contract, timeoutSeconds: 5, strict });
}

const failed = (report: NotifyReport) => report.cases.filter((c) => c.verdict === "fail").map((c) => c.id);
const failedRules = (report: NotifyReport) => [
  ...new Set(report.cases.filter((c) => c.verdict === "fail").map((c) => c.rule)),
];

describe("assopay notify", () => {
  it("passes the correct receiver on every case, and notes how it treats uppercase hex", async () => {
    const report = await battery(correctReceiver);
    expect(failed(report)).toEqual([]);
    expect(report.passed).toBe(true);
    expect(report.cases.map((c) => c.id)).toEqual([
      ...contract.notificationTypes.map((t) => `signed:${t.eventType}`),
      "unknown-type",
      "added-field",
      "raw:spaced",
      "raw:escaped",
      "raw:reordered",
      "uppercase-hex",
      "forged:bad-signature",
      "forged:other-key",
      "forged:missing-header",
      "forged:empty-header",
      "forged:body-altered",
      "duplicate",
    ]);
    expect(report.cases.find((c) => c.id === "uppercase-hex")).toMatchObject({ verdict: "warn" });
    expect(report.cases.find((c) => c.id === "duplicate")?.evidence?.diagnostics).toHaveLength(2);
  });

  it("fails a receiver that verifies over re-serialised JSON on the raw-bytes cases only", async () => {
    const report = await battery(reserialisingReceiver);
    expect(failed(report)).toEqual(["raw:spaced", "raw:escaped"]);
    expect(failedRules(report)).toEqual(["notify.verifies-raw-bytes"]);
    expect(report.diagnosis.join("\n")).toContain("it verifies a re-serialisation, not the raw body");
  });

  it("fails a receiver that crashes on an unknown type", async () => {
    const report = await battery(crashOnUnknownReceiver);
    expect(failed(report)).toEqual(["unknown-type"]);
    expect(report.cases.find((c) => c.id === "unknown-type")?.reason).toContain("answered 500");
  });

  it("fails a receiver that accepts forgeries", async () => {
    const report = await battery(acceptsForgedReceiver);
    expect(failedRules(report)).toEqual(["notify.rejects-forged"]);
    expect(failed(report)).toEqual([
      "forged:bad-signature",
      "forged:other-key",
      "forged:missing-header",
      "forged:empty-header",
      "forged:body-altered",
    ]);
  });

  it("fails a receiver that refuses a repeated notification, without --strict (the service sends it again)", async () => {
    const report = await battery(rejectsDuplicatesReceiver, false);
    expect(failed(report)).toEqual(["duplicate"]);
    expect(report.passed).toBe(false);
    expect(report.cases.find((c) => c.id === "duplicate")?.reason).toContain(
      "the second delivery answered 409",
    );
    expect(report.diagnosis.join("\n")).toContain("It refuses a notification it has already seen");
  });

  it("fails a receiver that compares against uppercase hex only, on every correctly signed case", async () => {
    const report = await battery(uppercaseOnlyReceiver);
    expect(failedRules(report)).toEqual([
      "notify.accepts-signed",
      "notify.tolerates-unknown-type",
      "notify.tolerates-added-fields",
      "notify.verifies-raw-bytes",
      "notify.idempotent",
    ]);
    expect(report.cases.find((c) => c.id === "uppercase-hex")).toMatchObject({ verdict: "warn" });
    expect(report.diagnosis.join("\n")).toContain(
      "accepts an uppercase-hex signature but refuses the lowercase one",
    );
  });

  it("signs as the service: lowercase hex HMAC-SHA256 of the raw bytes", () => {
    const raw = Buffer.from('{"data":{"title":"Faire un don \\u00e0 Demo"},"eventType":"Form"}', "utf8");
    expect(sign(raw, KEY)).toBe(createHmac("sha256", KEY).update(raw).digest("hex"));
    expect(sign(raw, KEY)).toMatch(/^[0-9a-f]{64}$/);
  });

  it("writes one value as different bytes that parse to the same value", () => {
    const value = { data: { url: "https://x.org/a", name: "Hélène" }, eventType: "Payment" };
    const forms = (["compact", "spaced", "escaped", "reordered"] as const).map((f) =>
      serialise(value, f).toString("utf8"),
    );
    expect(new Set(forms).size).toBe(4);
    for (const text of forms) expect(JSON.parse(text)).toEqual(value);
    expect(forms[2]).toBe(
      '{"data":{"url":"https:\\/\\/x.org\\/a","name":"H\\u00e9l\\u00e8ne"},"eventType":"Payment"}',
    );
  });

  it("gives every case bodies of its own, so deduplication never mixes two cases", () => {
    const cases = buildBattery({
      types: contract.notificationTypes,
      to: "http://127.0.0.1:3000/hook",
      key: KEY,
      urlSecret: undefined,
      unknownEventType: "FutureEvent",
    });
    const bodies = cases.flatMap((c) => [...new Set(c.deliveries.map((d) => d.body.toString("hex")))]);
    expect(new Set(bodies).size).toBe(bodies.length);
  });

  it("says nothing listens when the receiver is down (exit 2)", async () => {
    await expect(runNotify({ to: REFUSING_URL, key: KEY, contract })).rejects.toSatisfy(
      (e: unknown) => isAssopayError(e) && e.code === "unreachable",
    );
  });
});

describe("assopay notify on the command line", () => {
  it("reports each case and exits 1 on a failing receiver, 0 on a correct one", async () => {
    const bad = await startReceiver(reserialisingReceiver(KEY));
    const good = await startReceiver(correctReceiver(KEY));
    closers.push(bad.close, good.close);
    const failing = await runVerb(notifyCommand, ["--to", bad.url, "--key", KEY, "--types", "Order,Payment"]);
    expect(failing.code).toBe(1);
    expect(failing.stdout).toMatch(/✘ FAIL\s+raw:escaped /);
    // Each failure shows what was sent (request, signature, body) and the answer, then the fix.
    expect(failing.stdout).toMatch(
      /rule: +notify.verifies-raw-bytes\n.*\n {4}request: +POST .*\n(.*\n)*? {4}response: 401\n(.*\n)*? {6}- delivery 1: x-ha-signature: [0-9a-f]+; body \{.*\n(.*\n)*? {4}fix: /,
    );
    expect(failing.stdout).not.toContain("signed:Form");
    const passing = await runVerb(notifyCommand, ["--to", good.url, "--reporter", "junit"], {
      ASSOPAY_SIGNATURE_KEY: KEY,
    });
    expect(passing.code).toBe(0);
    expect(passing.stdout).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="assopay notify: /,
    );
    expect(passing.stdout).toContain(
      '<testcase classname="assopay.notify.notify.rejects-forged" name="forged:other-key"/>',
    );
  });

  it("refuses bad usage with exit 2", async () => {
    expect((await runVerb(notifyCommand, ["--key", KEY])).stderr).toContain("--to URL is required");
    expect((await runVerb(notifyCommand, ["--to", "http://127.0.0.1:2/x"])).stderr).toContain(
      "assopay notify: --key KEY or --url-secret",
    );
    const badType = await runVerb(notifyCommand, [
      "--to",
      "http://127.0.0.1:2/x",
      "--key",
      KEY,
      "--types",
      "Refund",
    ]);
    expect(badType.code).toBe(2);
    expect(badType.stderr).toContain('unknown notification type "Refund"');
    expect((await runVerb(notifyCommand, ["--to", "ftp://x", "--key", KEY])).code).toBe(2);
  });
});
