import { createServer } from "node:http";
import type { HttpMethod } from "../../contracts/index.js";
import { isAssopayError } from "../../core/errors.js";
import { readBodyOrRefuse } from "../../core/http/body.js";
import { endToEndHeaders } from "../../core/http/headers.js";
import { createLocalGuard } from "../../core/http/local-guard.js";
import { type RunningServer, startServer } from "../../core/http/server.js";
import type { HttpClient } from "../runner/http.js";

const LIMIT = { bytes: 16 * 1024 * 1024, title: "Request body too large for the forwarder" } as const;

/**
 * A forwarder on 127.0.0.1 in front of one URL of the target (its root, or its provider-state URL), for
 * Pact's verifier, which would otherwise ask the target itself: each request goes on through verify's
 * HTTP client, so a 429 is asked again after its `Retry-After` and the run's `--concurrency` holds, as
 * for verify's own requests. A rate limit thereby never fails an interaction; one that lasts past the
 * client's bound ends the run (the client refuses, and the forwarder answers 503 meanwhile). The path
 * `/` stands for `base` itself; any other path is put after it.
 *
 * @example
 * const front = await startRetryingForwarder(ctx.http, ctx.options.target);
 * // providerBaseUrl: front.url, then: await front.close();
 */
export async function startRetryingForwarder(http: HttpClient, base: string): Promise<RunningServer> {
  const guard = createLocalGuard({ what: "the Pact verifier's forwarder" });
  const server = createServer((req, res) => {
    if (!guard.admit(req, res, "host")) return;
    void (async () => {
      const body = await readBodyOrRefuse(req, res, LIMIT);
      if (!body.ok) return;
      const path = req.url ?? "/";
      const url = path === "/" ? base : `${base.replace(/\/+$/, "")}${path}`;
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(endToEndHeaders(req.headers))) {
        // The client asks for and undoes its own codings.
        if (name.toLowerCase() !== "accept-encoding") headers[name] = [value].flat().join(", ");
      }
      const type = headers["content-type"];
      const authorization = headers.authorization;
      delete headers.authorization;
      const answer = await http.send({
        method: (req.method ?? "GET").toUpperCase() as HttpMethod,
        url,
        headers,
        ...(authorization === undefined ? {} : { authorization }),
        ...(body.bytes.length > 0 || type !== undefined
          ? { body: { contentType: type ?? "application/octet-stream", text: body.bytes.toString("utf8") } }
          : {}),
      });
      const out: Record<string, string | string[]> = {};
      for (const [name, value] of answer.headers) {
        if (name === "content-encoding" || name === "set-cookie") continue;
        out[name] = value;
      }
      const cookies = answer.headers.getSetCookie();
      if (cookies.length > 0) out["set-cookie"] = cookies;
      const passed = endToEndHeaders(out);
      res.writeHead(answer.status, { ...passed, "content-length": String(answer.bytes.length) });
      res.end(answer.bytes);
    })().catch((error: unknown) => {
      if (res.headersSent) return res.destroy();
      const message = error instanceof Error ? error.message : String(error);
      res.writeHead(isAssopayError(error) ? 503 : 502, { "content-type": "text/plain; charset=utf-8" });
      res.end(message);
    });
  });
  return startServer(server, { what: "the Pact verifier's forwarder" });
}
