import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCassette } from "../../proxy/cassette/reader.js";
import { startRecorder } from "../../proxy/record/server.js";
import { startReplay } from "../../proxy/replay/server.js";
import { REFUSING_URL } from "../support/refused.js";
import { send, tempDir } from "./support/http.js";
import { SECRETS, sign, startUpstream } from "./support/upstream.js";

interface Received {
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

async function startReceiver(): Promise<{ url: string; received: Received[]; server: Server }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(202, { "content-type": "text/plain" }).end("accepted");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/helloasso`,
    received,
    server,
  };
}

const BODY = '{"eventType":"Order","data":{"id":42,"amount":{"total":1200}},"metadata":{"k":"v"}}';

describe("notification relay", () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let temp: Awaited<ReturnType<typeof tempDir>>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    upstream = await startUpstream();
    temp = await tempDir();
    receiver = await startReceiver();
  });

  afterAll(async () => {
    await upstream.close();
    await temp.remove();
    await new Promise((resolve) => receiver.server.close(resolve));
  });

  it("forwards each notification byte for byte, returns the receiver's answer, and records whether it verified", async () => {
    const file = temp.file("notify.yaml");
    const recorder = await startRecorder({
      upstream: upstream.url,
      cassette: file,
      notifyForward: receiver.url,
    });
    const post = (signature: string | undefined, suffix = "") =>
      send(`${recorder.notificationUrl}${suffix}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(signature ? { "x-ha-signature": signature } : {}),
        },
        body: BODY,
      });
    const early = await post(sign(SECRETS.signatureKey, BODY));
    await send(`${recorder.url}/v5/partners/me`, {
      headers: { authorization: `Bearer ${SECRETS.accessToken}` },
    });
    const good = await post(sign(SECRETS.signatureKey, BODY), "/org/asso?x=1");
    const forged = await post(sign("not-the-key", BODY));
    const unsigned = await post(undefined);
    await recorder.close();

    for (const reply of [early, good, forged, unsigned]) {
      expect(reply.status).toBe(202);
      expect(reply.text).toBe("accepted");
    }
    expect(receiver.received.map((r) => r.url)).toEqual([
      "/hooks/helloasso",
      "/hooks/helloasso/org/asso?x=1",
      "/hooks/helloasso",
      "/hooks/helloasso",
    ]);
    expect(receiver.received[1]?.body.toString()).toBe(BODY);
    expect(receiver.received[1]?.headers["x-ha-signature"]).toBe(sign(SECRETS.signatureKey, BODY));

    const cassette = await loadCassette(file);
    const notes = cassette.interactions.filter((i) => i.notification).map((i) => i.notification);
    const forwarded = { forwardedTo: receiver.url, forwardStatus: 202 };
    expect(notes).toEqual([
      {
        signature: {
          header: "x-ha-signature",
          verified: null,
          note: "no signing key known: fetch GET /v5/partners/me through the recorder first, or pass signatureKeys",
        },
        ...forwarded,
      },
      {
        signature: {
          header: "x-ha-signature",
          verified: true,
          note: "verified; re-signed with the placeholder of its signing key",
        },
        forwardedTo: `${receiver.url}/org/asso`,
        forwardStatus: 202,
      },
      {
        signature: {
          header: "x-ha-signature",
          verified: false,
          note: "matches none of the known signing keys",
        },
        ...forwarded,
      },
      { signature: { header: null, verified: null, note: "unsigned notification" }, ...forwarded },
    ]);
    const recorded = cassette.interactions.find((i) => i.notification?.signature.verified === true);
    expect(recorded?.request).toMatchObject({
      method: "POST",
      path: "/__assopay/notifications/org/asso",
      body: { json: JSON.parse(BODY) },
    });
    expect(recorded?.response).toMatchObject({ status: 202, body: { text: "accepted" } });
  });

  it("verifies with keys given up front, and answers 204 itself without a receiver", async () => {
    const file = temp.file("no-receiver.yaml");
    const recorder = await startRecorder({
      upstream: upstream.url,
      cassette: file,
      signatureKeys: [SECRETS.signatureKey],
      notificationPath: "/hooks",
    });
    const reply = await send(`${recorder.url}/hooks`, {
      method: "POST",
      headers: { "x-ha-signature": sign(SECRETS.signatureKey, BODY) },
      body: BODY,
    });
    await recorder.close();
    expect(reply.status).toBe(204);
    const [only] = (await loadCassette(file)).interactions;
    expect(only?.notification).toEqual({
      signature: {
        header: "x-ha-signature",
        verified: true,
        note: "verified; re-signed with the placeholder of its signing key",
      },
    });
  });

  it("answers 502 when the receiver is down, so that the service retries, and records why", async () => {
    const file = temp.file("down.yaml");
    const down = REFUSING_URL;
    const recorder = await startRecorder({
      upstream: upstream.url,
      cassette: file,
      notifyForward: `${down}/hook`,
    });
    const reply = await send(recorder.notificationUrl, { method: "POST", body: BODY });
    await recorder.close();
    expect(reply.status).toBe(502);
    expect(reply.json()).toMatchObject({
      type: "urn:assopay:problem:notification-forward-failed",
      detail: `the notification receiver ${down}/hook failed: connect ECONNREFUSED ${down.slice(7)}`,
    });
    const [only] = (await loadCassette(file)).interactions;
    expect(only?.notification).toMatchObject({
      forwardedTo: `${down}/hook`,
      forwardError: `connect ECONNREFUSED ${down.slice(7)}`,
    });
  });

  it("is never served by replay: the service sent those requests, not the client", async () => {
    const replay = await startReplay({ cassettes: temp.file("no-receiver.yaml") });
    const reply = await send(`${replay.url}/hooks`, { method: "POST", body: BODY });
    await replay.close();
    expect(reply.status).toBe(501);
  });
});
