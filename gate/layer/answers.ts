import type { ServerResponse } from "node:http";
import { refuseTooLarge } from "../../core/http/body.js";
import type { GateAnswer } from "../exchange.js";

/** A JSON answer made by the gate itself. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string | string[]> = {},
): void {
  if (res.headersSent) return;
  const bytes = Buffer.from(JSON.stringify(body), "utf8");
  res.writeHead(status, {
    ...headers,
    "content-type": "application/json; charset=utf-8",
    "content-length": String(bytes.length),
  });
  res.end(bytes);
}

/**
 * The status and body the gate answers for each of its reasons: in the service's own shapes, except a
 * request body over the layer's limit, which gets the project's 413 problem (the service states no limit).
 * `rate-limited` takes its `Retry-After` as `detail`; `connection-reset` closes the connection
 * unanswered (no status).
 */
export function sendGateAnswer(res: ServerResponse, reason: GateAnswer, detail = ""): number | undefined {
  switch (reason) {
    case "unknown-token":
      sendJson(res, 400, {
        type: "https://tools.ietf.org/html/rfc9110#section-15.5.1",
        title: "One or more validation errors occurred.",
        status: 400,
        errors: { continuationToken: [`The continuationToken is not valid: ${detail}.`] },
      });
      return 400;
    case "expired-access-token":
      sendJson(
        res,
        401,
        { errors: [{ code: "Unauthorized", message: "The access token has expired: ask for a new one." }] },
        { "www-authenticate": 'Bearer error="invalid_token", error_description="expired"' },
      );
      return 401;
    case "request-budget":
      sendJson(res, 503, {
        errors: [
          { code: "RequestBudgetSpent", message: `assopay gate: ${detail}; the command is being stopped.` },
        ],
      });
      return 503;
    case "upstream-failed":
      sendJson(res, 502, { errors: [{ code: "BadGateway", message: `assopay gate: ${detail}` }] });
      return 502;
    case "malformed-request":
      if (!res.headersSent) res.writeHead(400, { "content-length": "0", connection: "close" }).end();
      return 400;
    case "body-too-large":
      refuseTooLarge(res, "Request body too large", `assopay gate: ${detail}`);
      return 413;
    case "rate-limited":
      sendJson(
        res,
        429,
        { errors: [{ code: "TooManyRequests", message: "Too many requests: retry after the delay given." }] },
        { "retry-after": detail },
      );
      return 429;
    case "unavailable":
      sendJson(res, 503, {
        errors: [{ code: "ServiceUnavailable", message: "The service is unavailable: try again." }],
      });
      return 503;
    case "connection-reset":
      res.socket?.resetAndDestroy();
      return undefined;
  }
}
