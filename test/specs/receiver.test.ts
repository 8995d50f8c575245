import { afterEach, describe, expect, it } from "vitest";
import { RECEIVER_MAX_BODY_BYTES, type Receiver, startReceiver } from "../../specs/notifications/receiver.js";

const open: Receiver[] = [];
afterEach(async () => {
  for (const receiver of open.splice(0)) await receiver.close();
});

async function receiver(): Promise<Receiver> {
  const started = await startReceiver();
  open.push(started);
  return started;
}

describe("the notification receiver", () => {
  it("keeps a notification body of exactly the limit, byte for byte", async () => {
    const r = await receiver();
    const body = Buffer.alloc(RECEIVER_MAX_BODY_BYTES, 120);
    const answer = await fetch(r.url, { method: "POST", body, headers: { "x-ha-signature": "ab" } });
    expect(answer.status).toBe(200);
    expect(r.deliveries()).toHaveLength(1);
    expect(r.deliveries()[0]?.body.equals(body)).toBe(true);
    expect(r.deliveries()[0]?.headers["x-ha-signature"]).toBe("ab");
  });

  it("answers 413 to a body one byte over the limit and keeps nothing cut short", async () => {
    const r = await receiver();
    const answer = await fetch(r.url, {
      method: "POST",
      body: Buffer.alloc(RECEIVER_MAX_BODY_BYTES + 1, 120),
    });
    expect(answer.status).toBe(413);
    expect(answer.headers.get("content-type")).toBe("application/problem+json");
    expect(r.deliveries()).toHaveLength(0);
  });

  it("answers 404 elsewhere and keeps only what came to its own path", async () => {
    const r = await receiver();
    expect((await fetch(new URL("/elsewhere", r.url), { method: "POST", body: "{}" })).status).toBe(404);
    expect((await fetch(r.url, { method: "GET" })).status).toBe(404);
    expect(r.deliveries()).toHaveLength(0);
  });
});
