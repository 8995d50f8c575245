import { readdir } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { loadCassette } from "../../proxy/cassette/reader.js";
import type { ProxyEvent } from "../../proxy/events.js";
import { startRecorder } from "../../proxy/record/server.js";
import { upstreamAndTemp } from "./support/lifecycle.js";

import { loadClients, spawnRecorder } from "./support/recorder-process.js";

const CLIENTS = 200;

/** An upstream on 127.0.0.1 that answers `/blob?id=X&size=N` with N bytes of JSON naming X. */
async function blobUpstream(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const query = new URL(req.url ?? "/", "http://x").searchParams;
    const id = query.get("id") ?? "";
    const size = Number(query.get("size") ?? 100);
    const head = JSON.stringify({ id, pad: "" });
    const body = Buffer.from(`${head.slice(0, -2)}${"x".repeat(Math.max(0, size - head.length))}"}`);
    res.writeHead(200, { "content-type": "application/json", "content-length": body.length });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe("durable recording: SIGKILL with 200 concurrent clients", () => {
  const files = upstreamAndTemp(blobUpstream);

  const killed = (size: number, target: number) => async () => {
    const cassette = files.temp.file(`killed-${size}.yaml`);
    const recorder = await spawnRecorder([
      "--upstream",
      files.upstream.url,
      "--cassette",
      cassette,
      "--port",
      "0",
      "--quiet",
    ]);
    const load = loadClients(recorder.url, CLIENTS, size);
    while (load.completed.size < target) await new Promise((r) => setTimeout(r, 5));
    recorder.child.kill("SIGKILL");
    expect(await recorder.exited).toBe("SIGKILL");
    await load.stop();
    const completed = [...load.completed];
    expect(completed.length).toBeGreaterThanOrEqual(target);

    // The next start recovers the journal into the cassette, and says how many exchanges it recovered.
    const events: ProxyEvent[] = [];
    const again = await startRecorder({
      upstream: files.upstream.url,
      cassette,
      mode: "new",
      onEvent: (e) => events.push(e),
    });
    await again.close();
    const recovered = events.find((e) => /^took over the stale lock/.test(e.message));
    expect(recovered?.message).toContain(`process ${recorder.child.pid}`);
    const message = events.find((e) => /^recovered \d+ exchange\(s\)/.test(e.message));
    expect(message).toBeDefined();

    const loaded = await loadCassette(cassette);
    const recorded = new Set(loaded.interactions.map((i) => i.request.query?.id));
    const missing = completed.filter((id) => !recorded.has(id));
    expect({ missing: missing.length, of: completed.length }).toEqual({ missing: 0, of: completed.length });
    expect(new Set(loaded.interactions.map((i) => i.id)).size).toBe(loaded.interactions.length);
    for (const interaction of loaded.interactions.slice(0, 50)) {
      expect(interaction.response.body).toMatchObject({ json: { id: interaction.request.query?.id } });
    }
    expect((await readdir(files.temp.dir)).filter((n) => n.startsWith(`killed-${size}.yaml.`))).toEqual([]);
  };

  it(
    "2 KB bodies: no exchange a client fully received is missing after recovery",
    killed(2048, 3000),
    60_000,
  );
  it(
    "300 KB bodies: no exchange a client fully received is missing after recovery",
    killed(300 * 1024, 300),
    90_000,
  );
});
