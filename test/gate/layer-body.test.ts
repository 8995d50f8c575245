import { createServer, type IncomingHttpHeaders, request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../core/http/server.js";
import { LAYER_MAX_BODY_BYTES, type RunningLayer, startScenarioLayer } from "../../gate/layer/server.js";
import { scenarioByName } from "../../gate/scenarios.js";
import { contract } from "./support.js";

interface Arrival {
  length: number;
  headers: IncomingHttpHeaders;
}

/** A POST through the layer; `chunked` sends the body in pieces without a content-length. */
function post(
  url: string,
  body: Buffer,
  options: { chunked?: boolean; headers?: Record<string, string> } = {},
): Promise<{ status: number; type: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const headers = options.chunked
      ? { ...options.headers }
      : { ...options.headers, "content-length": String(body.length) };
    const call = request(`${url}/v5/whatever`, { method: "POST", agent: false, headers }, (res) => {
      let text = "";
      res.on("data", (c: Buffer) => {
        text += c.toString("utf8");
      });
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, type: res.headers["content-type"], body: text }),
      );
    });
    call.on("error", reject);
    if (options.chunked) {
      const half = Math.floor(body.length / 2);
      call.write(body.subarray(0, half));
      call.end(body.subarray(half));
    } else call.end(body);
  });
}

describe("the scenario layer's request body limit", () => {
  let upstream: RunningServer;
  let layer: RunningLayer;
  const arrivals: Arrival[] = [];

  beforeAll(async () => {
    const server = createServer((req, res) => {
      let length = 0;
      req.on("data", (c: Buffer) => {
        length += c.length;
      });
      req.on("end", () => {
        arrivals.push({ length, headers: req.headers });
        res.writeHead(200, { "content-type": "application/json", "content-length": "2" }).end("{}");
      });
    });
    upstream = await startServer(server, { what: "echo upstream" });
    layer = await startScenarioLayer({
      upstream: upstream.url,
      scenario: scenarioByName("uniform"),
      contract,
      maxRequests: 50,
      seed: "test",
      upstreamTimeoutMs: 5000,
      onBudgetSpent: () => undefined,
    });
  });
  afterAll(async () => {
    await layer.close();
    await upstream.close();
  });

  it("forwards a body of exactly the limit, whole", async () => {
    const before = arrivals.length;
    const answer = await post(layer.url, Buffer.alloc(LAYER_MAX_BODY_BYTES, 97));
    expect(answer.status).toBe(200);
    expect(arrivals.slice(before).map((a) => a.length)).toEqual([LAYER_MAX_BODY_BYTES]);
    const chunked = await post(layer.url, Buffer.alloc(LAYER_MAX_BODY_BYTES, 98), { chunked: true });
    expect(chunked.status).toBe(200);
    expect(arrivals.slice(before).map((a) => a.length)).toEqual([LAYER_MAX_BODY_BYTES, LAYER_MAX_BODY_BYTES]);
  });

  it("answers 413 one byte over the limit, declared or chunked, and forwards nothing", async () => {
    const before = arrivals.length;
    const declared = await post(layer.url, Buffer.alloc(LAYER_MAX_BODY_BYTES + 1, 97));
    expect(declared.status).toBe(413);
    expect(declared.type).toBe("application/problem+json");
    expect(JSON.parse(declared.body)).toMatchObject({
      type: "urn:assopay:problem:body-too-large",
      status: 413,
      detail: `assopay gate: the request body is ${LAYER_MAX_BODY_BYTES + 1} bytes, over the limit of ${LAYER_MAX_BODY_BYTES}`,
    });
    const chunked = await post(layer.url, Buffer.alloc(LAYER_MAX_BODY_BYTES + 1, 98), {
      chunked: true,
    }).catch(() => ({ status: -1 }));
    expect([413, -1]).toContain(chunked.status);
    expect(arrivals.length).toBe(before);
    const refused = layer.exchanges().filter((e) => e.response?.reason === "body-too-large");
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(refused[0]?.response).toMatchObject({ status: 413, madeBy: "gate" });
  });

  it("does not forward hop-by-hop headers, nor those named in Connection", async () => {
    const before = arrivals.length;
    await post(layer.url, Buffer.from("{}"), {
      headers: {
        connection: "close, x-hop",
        "x-hop": "secret",
        "proxy-authorization": "Basic eA==",
        "x-end": "1",
      },
    });
    const seen = arrivals[before]?.headers ?? {};
    expect(seen["x-end"]).toBe("1");
    expect(seen["x-hop"]).toBeUndefined();
    expect(seen["proxy-authorization"]).toBeUndefined();
  });
});
