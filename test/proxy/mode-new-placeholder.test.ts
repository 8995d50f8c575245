import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { placeholderFor } from "../../core/secrets/placeholder.js";
import type { ProxyEvent } from "../../proxy/events.js";
import { startRecorder } from "../../proxy/record/server.js";
import { writeCassette } from "./support/cassettes.js";
import { startCountingUpstream } from "./support/counting-upstream.js";
import { send, tempDir } from "./support/http.js";

// A client replayed from a cassette holds the placeholder of a token, not the token. In mode new, such a
// request is answered from the cassette or refused: forwarded, the service would only answer 401, and
// that 401 would be recorded.
const TOKEN = placeholderFor("a-real-access-token-from-the-service");
const JSON_TYPE = { "content-type": "application/json" };

describe("record --mode new and secret placeholders", () => {
  let upstream: Awaited<ReturnType<typeof startCountingUpstream>>;
  let temp: Awaited<ReturnType<typeof tempDir>>;

  beforeAll(async () => {
    upstream = await startCountingUpstream();
    temp = await tempDir();
  });

  afterAll(async () => {
    await upstream.close();
    await temp.remove();
  });

  async function recorder(file: string, events: ProxyEvent[] = []) {
    return startRecorder({
      upstream: upstream.url,
      cassette: file,
      mode: "new",
      onEvent: (e) => events.push(e),
    });
  }

  it("answers a placeholder request from the cassette, refuses the others, and forwards none", async () => {
    const file = temp.file("placeholders.yaml");
    await writeCassette(file, [
      {
        path: "/v5/users/me",
        requestHeaders: { authorization: `Bearer ${TOKEN}` },
        body: { json: { name: "me" } },
      },
    ]);
    const events: ProxyEvent[] = [];
    const proxy = await recorder(file, events);
    const before = upstream.seen.length;
    try {
      const served = await send(`${proxy.url}/v5/users/me`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(served.status).toBe(200);
      expect(served.json()).toEqual({ name: "me" });

      const carriers = [
        send(`${proxy.url}/v5/partners/me`, { headers: { authorization: `Bearer ${TOKEN}` } }),
        send(`${proxy.url}/v5/users/me/organizations?access_token=${encodeURIComponent(TOKEN)}`),
        send(`${proxy.url}/v5/files/${encodeURIComponent(TOKEN)}`),
        send(`${proxy.url}/oauth2/token`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: `grant_type=refresh_token&refresh_token=${encodeURIComponent(TOKEN)}`,
        }),
        send(`${proxy.url}/v5/checkout`, {
          method: "POST",
          headers: JSON_TYPE,
          body: JSON.stringify({ note: `token ${TOKEN}` }),
        }),
      ];
      for (const refused of await Promise.all(carriers)) {
        expect(refused.status).toBe(501);
        expect(refused.headers["content-type"]).toBe("application/problem+json");
        const problem = refused.json<{ type: string; detail: string }>();
        expect(problem.type).toBe("urn:assopay:problem:placeholder-not-forwarded");
        expect(problem.detail).toContain("came from the cassette");
      }
      expect(upstream.seen.length).toBe(before);
      expect(upstream.seen.some((s) => JSON.stringify(s).includes("<secret:"))).toBe(false);
      expect(events.filter((e) => e.kind === "miss")).toHaveLength(carriers.length);
    } finally {
      const { recorded } = await proxy.close();
      expect(recorded).toBe(0);
    }
  });

  it("still forwards and records requests that carry real values", async () => {
    const file = temp.file("real.yaml");
    await writeCassette(file, [{ path: "/v5/users/me", body: { json: { name: "me" } } }]);
    const proxy = await recorder(file);
    const before = upstream.seen.length;
    try {
      const forwarded = await send(`${proxy.url}/v5/partners/me`, {
        headers: { authorization: "Bearer a-real-access-token-from-the-service" },
      });
      expect(forwarded.status).toBe(200);
      // A text that merely looks like one, without the prefix, is no placeholder.
      const lookalike = await send(`${proxy.url}/v5/notes`, {
        method: "POST",
        headers: JSON_TYPE,
        body: JSON.stringify({ note: "<secretary:0123456789abcdef>" }),
      });
      expect(lookalike.status).toBe(200);
      expect(upstream.seen.length).toBe(before + 2);
    } finally {
      expect((await proxy.close()).recorded).toBe(2);
    }
  });

  it("refuses a placeholder when the cassette does not exist yet, too", async () => {
    const proxy = await recorder(temp.file("fresh.yaml"));
    const before = upstream.seen.length;
    try {
      const refused = await send(`${proxy.url}/v5/users/me`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(refused.status).toBe(501);
      expect(upstream.seen.length).toBe(before);
      const real = await send(`${proxy.url}/v5/users/me`, { headers: { authorization: "Bearer real" } });
      expect(real.status).toBe(200);
      expect(upstream.seen.length).toBe(before + 1);
    } finally {
      await proxy.close();
    }
  });
});
