import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { networkInterfaces } from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import { offLoopback } from "../../core/http/loopback.js";
import { day, type Harness, harness } from "./helpers.js";

/** An IPv4 address of this machine that is not loopback, if it has one (a container's eth0). */
const external = Object.values(networkInterfaces())
  .flatMap((list) => list ?? [])
  .find((entry) => entry.family === "IPv4" && !entry.internal)?.address;

/** A receiver on every interface: it would see any delivery to this machine's external address. */
async function wideReceiver() {
  const received: string[] = [];
  const server = createServer((req, res) => {
    received.push(req.url ?? "");
    req.resume();
    res.end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "0.0.0.0", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const open: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of open.splice(0).reverse()) await close();
});

async function sandboxNotifying(url: string, options: { notifyAnyHost?: boolean } = {}) {
  const notices: string[] = [];
  const h: Harness = await harness({
    at: day("2025-07-01"),
    entries: 10,
    notificationRetryDelaysMs: [10],
    onNotice: (message) => notices.push(message),
    ...options,
  });
  open.push(() => h.close());
  await h.state("a partner with a notification URL", { url });
  await h.state("an order is paid");
  await h.sandbox.core.notifier.settled();
  return { h, notices, deliveries: h.sandbox.core.notifier.deliveries() };
}

describe("the sandbox delivers notifications only on this machine unless told otherwise", () => {
  it("skips a URL off the machine: no attempt, a skipped delivery saying why, one notice", async () => {
    // The shipped Pact files once registered https://example.org/assopay/hook. A URL that stays on this
    // machine stands for it here (0.0.0.0 is not loopback by the URL, yet a connection to it would stay
    // local), so that even a broken guard sends nothing off the machine.
    const { notices, deliveries } = await sandboxNotifying("http://0.0.0.0:9/assopay/hook");
    expect(deliveries).toHaveLength(2);
    for (const delivery of deliveries) {
      expect(delivery.state).toBe("skipped");
      expect(delivery.attempts).toEqual([]);
      expect(delivery.skipped).toContain("0.0.0.0 is not a loopback address");
      expect(delivery.skipped).toContain("--notify-any-host");
    }
    expect(notices).toEqual([deliveries[0]?.skipped]);
  });

  it.skipIf(external === undefined)(
    "sends nothing to this machine's own external address, which a listener there proves",
    async () => {
      const wide = await wideReceiver();
      open.push(() => wide.close());
      const { deliveries } = await sandboxNotifying(`http://${external}:${wide.port}/hook`);
      expect(deliveries.map((d) => d.state)).toEqual(["skipped", "skipped"]);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(wide.received).toEqual([]);
    },
  );

  it.skipIf(external === undefined)("with notifyAnyHost (--notify-any-host), delivers there", async () => {
    const wide = await wideReceiver();
    open.push(() => wide.close());
    const { deliveries, notices } = await sandboxNotifying(`http://${external}:${wide.port}/hook`, {
      notifyAnyHost: true,
    });
    expect(deliveries.map((d) => d.state)).toEqual(["delivered", "delivered"]);
    expect(wide.received).toEqual(["/hook", "/hook"]);
    expect(notices).toEqual([]);
  });

  it("delivers to 127.0.0.1 and localhost without any flag", async () => {
    const wide = await wideReceiver();
    open.push(() => wide.close());
    for (const host of ["127.0.0.1", "localhost"]) {
      const { deliveries, notices } = await sandboxNotifying(`http://${host}:${wide.port}/${host}`);
      expect(
        deliveries.map((d) => d.state),
        host,
      ).toEqual(["delivered", "delivered"]);
      expect(notices).toEqual([]);
    }
    expect(wide.received).toEqual(["/127.0.0.1", "/127.0.0.1", "/localhost", "/localhost"]);
  });

  it("decides from the URL alone, before any lookup or connection", () => {
    for (const url of [
      "http://127.0.0.1/",
      "http://127.8.9.10:9/x",
      "http://localhost:1/",
      "http://[::1]:80/",
      "http://[::ffff:127.0.0.1]/",
    ])
      expect(offLoopback(url), url).toBeUndefined();
    for (const url of [
      "https://example.org/assopay/hook",
      "http://10.0.0.1/",
      "http://0.0.0.0/",
      "http://[::2]/",
      "http://127.0.0.1.nip.io/",
      "http://localhost.example.org/",
      "not a url",
    ])
      expect(offLoopback(url), url).toBeDefined();
  });
});
