import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { placeholderFor } from "../../core/secrets/placeholder.js";
import { loadCassette } from "../../proxy/cassette/reader.js";
import { startRecorder } from "../../proxy/record/server.js";
import { startReplay } from "../../proxy/replay/server.js";
import { send, tempDir } from "./support/http.js";
import { SECRETS, sign, startUpstream } from "./support/upstream.js";

const FORM = "application/x-www-form-urlencoded";
const basic = Buffer.from(`client-id:${SECRETS.basicPassword}`).toString("base64");

/** A session in which every kind of secret crosses the proxy, in requests, responses and notifications. */
async function session(base: string, notificationUrl: string): Promise<void> {
  const bearer = { authorization: `Bearer ${SECRETS.accessToken}` };
  await send(`${base}/oauth2/token`, {
    method: "POST",
    headers: { "content-type": FORM },
    body: `grant_type=client_credentials&client_id=abc&client_secret=${SECRETS.clientSecret}`,
  });
  await send(`${base}/oauth2/token`, {
    method: "POST",
    headers: { "content-type": FORM, authorization: `Basic ${basic}` },
    body: "grant_type=client_credentials",
  });
  await send(`${base}/oauth2/token`, {
    method: "POST",
    headers: { "content-type": FORM },
    body: `grant_type=refresh_token&client_id=abc&refresh_token=${SECRETS.refreshToken}`,
  });
  await send(`${base}/v5/partners/me`, { headers: bearer });
  await send(`${base}/v5/organizations/asso/forms/Event/gala/items`, {
    headers: { ...bearer, cookie: `session=${SECRETS.sessionCookie}; theme=dark` },
  });
  await send(
    `${base}/v5/organizations/asso/forms/Event/gala/items?access_token=${SECRETS.queryToken}&pageSize=20`,
  );
  await send(`${base}/gzip-secret`, { headers: { "accept-encoding": "gzip" } });
  await send(`${base}/pretty-token`);
  await send(`${base}/big-json`);
  await send(`${base}/error-text`, { headers: bearer });
  await send(`${base}/echo`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      nested: { clientSecret: SECRETS.clientSecret },
      note: `token ${SECRETS.accessToken}`,
    }),
  });
  const notification = JSON.stringify({
    eventType: "Order",
    data: { id: 7, payer: { email: "jean.dupont@gmail.com" } },
  });
  await send(notificationUrl, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-ha-signature": sign(SECRETS.signatureKey, notification),
    },
    body: notification,
  });
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

describe("secrets", () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let temp: Awaited<ReturnType<typeof tempDir>>;

  beforeAll(async () => {
    upstream = await startUpstream();
    temp = await tempDir();
    for (const name of ["a.yaml", "b.yaml"]) {
      const recorder = await startRecorder({ upstream: upstream.url, cassette: temp.file(name) });
      await session(recorder.url, recorder.notificationUrl);
      await recorder.close();
    }
    const pii = await startRecorder({
      upstream: upstream.url,
      cassette: temp.file("pii.yaml"),
      redactPii: true,
    });
    await session(pii.url, pii.notificationUrl);
    await pii.close();
  });

  afterAll(async () => {
    await upstream.close();
    await temp.remove();
  });

  it("writes none of the session's secrets anywhere on disk, in any encoding", async () => {
    const files = await filesUnder(temp.dir);
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const file of files) {
      const bytes = await readFile(file);
      for (const [name, secret] of Object.entries(SECRETS)) {
        for (const form of [secret, encodeURIComponent(secret), Buffer.from(secret).toString("base64")]) {
          expect(bytes.includes(form), `${name} (${form}) in ${file}`).toBe(false);
        }
      }
      expect(bytes.includes(basic), `basic credentials in ${file}`).toBe(false);
    }
  });

  it("gives the same secret the same placeholder, within and across cassettes", async () => {
    const a = await readFile(temp.file("a.yaml"), "utf8");
    const b = await readFile(temp.file("b.yaml"), "utf8");
    const token = placeholderFor(SECRETS.accessToken);
    expect(token).toMatch(/^<secret:[0-9a-f]{16}>$/);
    expect(a.split(token).length - 1).toBeGreaterThanOrEqual(5);
    expect(b.split(token).length - 1).toBe(a.split(token).length - 1);
    expect(a).toContain(`authorization: Bearer ${token}`);
    expect(a).toContain(`access_token: ${token}`);
    expect(a).toContain(`invalid token ${token}`);
    expect(a).toContain(`signatureKey: ${placeholderFor(SECRETS.signatureKey)}`);
    expect(a).toContain(`client_secret=${placeholderFor(SECRETS.clientSecret)}`);
  });

  it("re-signs a verified notification with its key's placeholder, so the cassette is self-consistent", async () => {
    const cassette = await loadCassette(temp.file("a.yaml"));
    const notification = cassette.interactions.find((i) => i.notification);
    expect(notification?.notification?.signature).toMatchObject({ header: "x-ha-signature", verified: true });
    const body = JSON.stringify((notification?.request.body as { json: unknown } | undefined)?.json);
    expect(notification?.request.headers["x-ha-signature"]).toBe(
      sign(placeholderFor(SECRETS.signatureKey), body),
    );
  });

  it("replays requests that carry the real secrets, and explains a wrong one without revealing it", async () => {
    const replay = await startReplay({ cassettes: temp.file("a.yaml") });
    try {
      const hit = await send(`${replay.url}/oauth2/token`, {
        method: "POST",
        headers: { "content-type": FORM },
        body: `client_secret=${SECRETS.clientSecret}&grant_type=client_credentials&client_id=abc`,
      });
      expect(hit.status).toBe(200);
      expect(hit.json()).toMatchObject({ access_token: placeholderFor(SECRETS.accessToken) });
      const query = await send(
        `${replay.url}/v5/organizations/asso/forms/Event/gala/items?pageSize=20&access_token=${SECRETS.queryToken}`,
      );
      expect(query.status).toBe(200);
      const wrong = await send(`${replay.url}/oauth2/token`, {
        method: "POST",
        headers: { "content-type": FORM },
        body: "grant_type=client_credentials&client_id=abc&client_secret=a-wrong-secret-value",
      });
      expect(wrong.status).toBe(501);
      expect(wrong.text).not.toContain("a-wrong-secret-value");
      expect(wrong.json()).toMatchObject({
        detail: "no recorded request matches POST /oauth2/token; the closest differs in body client_secret",
      });
    } finally {
      await replay.close();
    }
  });

  it("with --redact-pii, replaces payer names and e-mails by stable fakes of the same shape", async () => {
    const text = await readFile(temp.file("pii.yaml"), "utf8");
    expect(text).not.toMatch(/Dupont|dupont|Jean-Marie|gmail/);
    const cassette = await loadCassette(temp.file("pii.yaml"));
    const page = cassette.interactions.find((i) => i.request.path.endsWith("/items"))?.response.body as {
      json: { data: { payer: { email: string; firstName: string; lastName: string } }[] };
    };
    const [first, second] = page.json.data;
    expect(first?.payer.firstName).toMatch(/^[A-Z][a-z]{3}-[A-Z][a-z]{4}$/);
    expect(first?.payer.lastName).toMatch(/^[A-Z][a-z]{5}$/);
    expect(first?.payer.email).toMatch(/^[a-z]{4}\.[a-z]{6}\d{2}@example\.com$/);
    expect(second?.payer.firstName).toBe(first?.payer.firstName);
    expect(second?.payer.email).not.toBe(first?.payer.email);
    expect(cassette.header.redaction.pii).toBe(true);
  });
});
