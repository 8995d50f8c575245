import { Agent, createServer, request } from "node:http";
import { describe, expect, it } from "vitest";
import { AssopayError } from "../../../core/errors.js";
import { startServer } from "../../../core/http/server.js";
import { serve } from "./support.js";

/** A GET resolving to its status and body, or to `cut` when the connection dies before the end. */
function get(url: string, agent: Agent | false = false): Promise<{ status: number; body: string } | "cut"> {
  return new Promise((resolve) => {
    const call = request(url, { agent }, (res) => {
      let body = "";
      res.on("data", (c: Buffer) => {
        body += c.toString("utf8");
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      res.on("error", () => resolve("cut"));
      res.on("aborted", () => resolve("cut"));
    });
    call.on("error", () => resolve("cut"));
    call.end();
  });
}

const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("startServer", () => {
  it("listens on 127.0.0.1 and a free port by default", async () => {
    const running = await serve((_req, res) => {
      res.end("hello");
    });
    expect(running.url).toBe(`http://127.0.0.1:${running.port}`);
    expect(running.port).toBeGreaterThan(0);
    expect(await get(`${running.url}/`)).toEqual({ status: 200, body: "hello" });
    await running.close();
  });

  it("gives a loopback URL for a wildcard address", async () => {
    const running = await startServer(
      createServer((_req, res) => res.end("any")),
      { what: "wildcard", host: "0.0.0.0" },
    );
    expect(running.url).toBe(`http://127.0.0.1:${running.port}`);
    expect(await get(`${running.url}/`)).toEqual({ status: 200, body: "any" });
    await running.close();
  });

  it("refuses a busy port as a usage error naming the server, the address and what to do", async () => {
    const first = await serve((_req, res) => {
      res.end();
    });
    const error = await startServer(createServer(), { what: "second server", port: first.port }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AssopayError);
    expect((error as AssopayError).code).toBe("usage");
    expect((error as AssopayError).message).toMatch(
      new RegExp(`^the second server cannot listen on 127\\.0\\.0\\.1:${first.port}: .*EADDRINUSE`),
    );
    expect((error as AssopayError).hint).toBe("choose another --port, or --port 0 for any free port");
    await first.close();
  });

  it("refuses an address this machine does not have, with a hint about --host", async () => {
    const error = await startServer(createServer(), { what: "server", host: "192.0.2.1" }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AssopayError);
    expect((error as AssopayError).hint).toMatch(/--host/);
  });
});

describe("close()", () => {
  it("lets a request in progress finish within the grace period, refusing new connections meanwhile", async () => {
    let arrived!: () => void;
    const inside = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const running = await serve(async (_req, res) => {
      arrived();
      await later(150);
      res.end("finished");
    }, 600_000);
    const pending = get(`${running.url}/slow`);
    await inside;
    const started = Date.now();
    const closing = running.close();
    expect(await get(`${running.url}/new`)).toBe("cut");
    expect(await pending).toEqual({ status: 200, body: "finished" });
    await closing;
    // Closed when the request finished, not at the end of the 10-minute grace period.
    expect(Date.now() - started).toBeLessThan(300_000);
    expect(running.close()).toBe(closing);
  });

  it("cuts a request still in progress once the grace period is over", async () => {
    let arrived!: () => void;
    const inside = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const running = await serve(() => {
      arrived(); // never answers
    }, 200);
    const pending = get(`${running.url}/hangs`);
    await inside;
    const started = Date.now();
    await running.close();
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    expect(await pending).toBe("cut");
  });

  it("without a grace period, cuts at once; idle keep-alive connections never hold it up", async () => {
    let arrived!: () => void;
    const inside = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const cutting = await serve(() => {
      arrived();
    });
    const pending = get(`${cutting.url}/hangs`);
    await inside;
    await cutting.close();
    expect(await pending).toBe("cut");

    const patient = await serve((_req, res) => {
      res.end("ok");
    }, 600_000);
    const agent = new Agent({ keepAlive: true });
    expect(await get(`${patient.url}/`, agent)).toEqual({ status: 200, body: "ok" });
    const started = Date.now();
    await patient.close();
    expect(Date.now() - started).toBeLessThan(300_000);
    agent.destroy();
  });
});
