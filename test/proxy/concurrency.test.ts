import { readFile } from "node:fs/promises";
import { Agent } from "node:http";
import { describe, expect, it } from "vitest";
import { loadCassette } from "../../proxy/cassette/reader.js";
import { startRecorder } from "../../proxy/record/server.js";
import { startReplay } from "../../proxy/replay/server.js";
import { send } from "./support/http.js";
import { upstreamAndTemp } from "./support/lifecycle.js";
import { startUpstream } from "./support/upstream.js";

const CLIENTS = 200;

function body(i: number): string {
  return JSON.stringify({ client: i, filler: "x".repeat(200 + (i % 7) * 500) });
}

describe("200 concurrent clients", () => {
  const files = upstreamAndTemp(startUpstream);

  it("records every exchange whole, none lost, none interleaved, and replays each to its own client", async () => {
    const cassette = files.temp.file("concurrent.yaml");
    const recorder = await startRecorder({ upstream: files.upstream.url, cassette });
    const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
    const live = await Promise.all(
      Array.from({ length: CLIENTS }, (_, i) =>
        send(`${recorder.url}/echo?client=${i}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: body(i),
          agent,
        }),
      ),
    );
    agent.destroy();
    expect((await recorder.close()).recorded).toBe(CLIENTS);
    for (const [i, reply] of live.entries()) expect(reply.json()).toMatchObject({ received: body(i) });

    const loaded = await loadCassette(cassette);
    expect(loaded.warnings).toEqual([]);
    expect(loaded.interactions).toHaveLength(CLIENTS);
    expect(new Set(loaded.interactions.map((i) => i.id)).size).toBe(CLIENTS);
    for (const interaction of loaded.interactions) {
      const client = Number(interaction.request.query?.client);
      expect(interaction.request.body).toEqual({ json: JSON.parse(body(client)) });
      expect(interaction.response.body).toMatchObject({ json: { received: body(client) } });
    }
    const text = await readFile(cassette, "utf8");
    expect(text.match(/^---$/gm)).toHaveLength(CLIENTS + 1);
    expect(text.match(/^\.\.\.$/gm)).toHaveLength(CLIENTS + 1);

    const replay = await startReplay({ cassettes: cassette });
    const replayed = await Promise.all(
      Array.from({ length: CLIENTS }, (_, i) =>
        send(`${replay.url}/echo?client=${i}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: body(i),
        }),
      ),
    );
    await replay.close();
    for (const [i, reply] of replayed.entries())
      expect(reply.body.equals(live[i]?.body as Buffer)).toBe(true);
  });
});
