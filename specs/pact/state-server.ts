import { createServer, type ServerResponse } from "node:http";
import { readBodyOrRefuse } from "../../core/http/body.js";
import { createLocalGuard } from "../../core/http/local-guard.js";
import { type RunningServer, startServer } from "../../core/http/server.js";
import type { StateReply } from "./discovered-states.js";

/** How the state server answers one state: the reply of `answerState` for it. */
export type StateAnswerer = (
  state: string,
  params: Readonly<Record<string, unknown>> | undefined,
) => StateReply;

const LIMIT = { bytes: 65_536, title: "Provider-state request too large" } as const;

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

/**
 * A provider-state endpoint on 127.0.0.1 (Pact's convention: `POST {state, params, action}` answered
 * with the JSON of the values the request generators read), answering from values verify discovered.
 * Teardowns change nothing and answer `{}`; a state it cannot answer gets 400 with the reason.
 *
 * @example
 * const server = await startStateServer((state, params) => answerState(found, state, params));
 * // hand server.url to Pact's verifier as providerStatesSetupUrl, then:
 * await server.close();
 */
export async function startStateServer(answer: StateAnswerer): Promise<RunningServer> {
  // Pact's verifier posts JSON from this machine; a web page of another site or name may not.
  const guard = createLocalGuard({ what: "provider-state server" });
  const server = createServer((req, res) => {
    if (!guard.admit(req, res, req.method === "POST" ? "control" : "host")) return;
    void (async () => {
      if (req.method !== "POST") return send(res, 405, { error: "POST {state, params, action}" });
      const body = await readBodyOrRefuse(req, res, LIMIT);
      if (!body.ok) return;
      let request: { state?: unknown; params?: unknown; action?: unknown };
      try {
        request = JSON.parse(body.bytes.toString("utf8")) as typeof request;
      } catch {
        return send(res, 400, { error: "the body is not JSON" });
      }
      if (request === null || typeof request !== "object" || typeof request.state !== "string")
        return send(res, 400, { error: "the body names no state" });
      if (request.action === "teardown") return send(res, 200, {});
      const params =
        request.params !== null && typeof request.params === "object"
          ? (request.params as Record<string, unknown>)
          : undefined;
      const reply = answer(request.state, params);
      if (!reply.ok) return send(res, 400, { error: reply.reason });
      return send(res, 200, reply.values);
    })().catch(() => {
      if (!res.headersSent) send(res, 500, { error: "the state server failed" });
      else res.destroy();
    });
  });
  return startServer(server, { what: "provider-state server" });
}
