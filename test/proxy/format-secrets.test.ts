import { readdir, readFile } from "node:fs/promises";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SECRET_FORMATS, type SecretFormat } from "../../core/secrets/formats.js";
import { loadCassette } from "../../proxy/cassette/reader.js";
import { startRecorder } from "../../proxy/record/server.js";
import { send, tempDir } from "./support/http.js";

/** What must not be written: the whole example, or its `secret` group where the format keeps the rest. */
function secretOf(format: SecretFormat): string {
  const match = new RegExp(format.pattern.source, format.pattern.flags.replace("g", "")).exec(format.example);
  return (format.secret === 0 ? match?.[0] : match?.groups?.secret) ?? format.example;
}

/** Forms a secret may take in a cassette: as is, URL-encoded, JSON-escaped. */
const forms = (value: string) => [value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)];

/** Where an exchange carries the example: one place per recording, so no place learns from another. */
interface Place {
  name: string;
  request(example: string): { path: string; headers?: Record<string, string>; body?: string };
  response?(example: string): { headers: IncomingHttpHeaders; body: string };
}

const inline = (example: string) => example.replace(/\n/g, " ");
const PLACES: Place[] = [
  {
    name: "a request's JSON body",
    request: (e) => ({
      path: "/a",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ note: `deploy with ${e} today` }),
    }),
  },
  {
    name: "a request's text body",
    request: (e) => ({ path: "/a", headers: { "content-type": "text/plain" }, body: `log line: ${e}` }),
  },
  { name: "a query value of no secret name", request: (e) => ({ path: `/a?q=${encodeURIComponent(e)}` }) },
  {
    name: "a request header of no secret name",
    request: (e) => ({ path: "/a", headers: { "x-client-note": `with ${inline(e)}` } }),
  },
  {
    name: "a response's JSON body",
    request: () => ({ path: "/a" }),
    response: (e) => ({
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ notes: [`seen ${e}`] }),
    }),
  },
  {
    name: "a response header of no secret name",
    request: () => ({ path: "/a" }),
    response: (e) => ({ headers: { "x-upstream-note": `seen ${inline(e)}` }, body: "" }),
  },
];

/** Records one exchange per format, the example in `place`, and reads every file the recorder wrote. */
async function record(place: Place): Promise<{ written: string; interactions: number }> {
  const dir = await tempDir();
  let current = "";
  const upstream = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const answer = place.response?.(current) ?? {
        headers: { "content-type": "application/json" },
        body: "{}",
      };
      res.writeHead(200, answer.headers).end(answer.body);
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  const recorder = await startRecorder({
    upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
    cassette: dir.file("formats.yaml"),
  });
  for (const format of SECRET_FORMATS) {
    current = format.example;
    const r = place.request(format.example);
    await send(`${recorder.url}${r.path}`, {
      method: r.body ? "POST" : "GET",
      headers: r.headers,
      body: r.body,
    });
  }
  await recorder.close();
  await new Promise((resolve) => upstream.close(resolve));
  let written = "";
  for (const entry of await readdir(dir.dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) written += await readFile(join(entry.parentPath, entry.name), "utf8");
  const interactions = (await loadCassette(dir.file("formats.yaml"))).interactions.length;
  await dir.remove();
  return { written, interactions };
}

describe("every known secret format, recorded in each place an exchange holds text", () => {
  it.each(PLACES.map((place) => [place.name, place] as const))(
    "%s: every exchange recorded, no format's secret written",
    async (_, place) => {
      const { written, interactions } = await record(place);
      expect(interactions).toBe(SECRET_FORMATS.length);
      const leaked = SECRET_FORMATS.filter((format) =>
        forms(secretOf(format)).some((f) => written.includes(f)),
      );
      expect(leaked.map((format) => format.id)).toEqual([]);
    },
  );
});
