import type { IncomingMessage, ServerResponse } from "node:http";
import type { Planted } from "./planted.js";

/** A request of the planted session: its path, headers and body. */
export interface PlantedRequest {
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

const AWS_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/**
 * The secrets issue 24 found recorded in clear (16 of 16), planted the way a client or a provider sends
 * them; each request also carries a legal look-alike that must stay (`country_code`, a payment `state`).
 */
export function issue24Requests(p: Planted): PlantedRequest[] {
  const form = "application/x-www-form-urlencoded";
  return [
    {
      path: `/echo?code=${p.text("OAuth code= in a query")}&state=${p.text("OAuth state in a query")}&country_code=FR`,
    },
    { path: `/echo?sig=${p.text("sig= of a signed URL")}&se=2026-01-01&sp=r` },
    {
      path: "/echo",
      headers: { "content-type": form },
      body: `grant_type=authorization_code&code=${p.text("OAuth code= in a token form")}&otp=${p.text("otp in a form")}&pin=${p.text("pin in a form")}`,
    },
    {
      path: "/echo",
      headers: { "content-type": "application/json", "x-session-id": p.text("X-Session-Id header") },
      body: JSON.stringify({ sessionId: p.text("sessionId in JSON"), state: "Authorized", code: "E42" }),
    },
    {
      path: "/echo",
      headers: { "content-type": "application/xml" },
      body: `<?xml version="1.0"?><login><user>someone</user><password>${p.text("XML <password>")}</password></login>`,
    },
    {
      path: "/echo",
      headers: { "content-type": "text/plain" },
      body: `deploy key:\n${p.pem("PEM private key in text")}\n`,
    },
    {
      path: "/echo",
      headers: {
        "content-type": "text/plain",
        "x-request-note": `ci ${p.shaped("Slack token in a header", "xoxb-", 40)}`,
      },
      body: `push with ${p.shaped("ghp_ token in text", "ghp_", 36)}, bill with ${p.shaped("sk_live_ key in text", "sk_live_", 24)}, store with ${p.shaped("AWS key id in text", "AKIA", 16, AWS_ALPHABET)}`,
    },
    {
      path: "/echo",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        payload: JSON.stringify({ password: p.text("JSON inside a string"), amount: 1 }),
      }),
    },
    { path: "/cookies" },
    { path: `/files/${p.shaped("secret path segment, recorded", "ghp_", 36)}` },
  ];
}

/** A failed exchange whose target holds a secret path segment: the recorder prints it (stderr). */
export function issue24FailedPath(p: Planted): string {
  return `/fail/${p.shaped("secret path segment of a failed exchange (stderr)", "sk_live_", 30)}/x`;
}

/**
 * A token the upstream issues in a body, then used as a path segment by a request that fails: no name
 * or format speaks for that segment; the recorder learned the token from the earlier body.
 */
export function issue24LearnedToken(p: Planted): string {
  return p.text("token issued in a body, then a path segment of a failed exchange (stderr)");
}

/** Responses that plant secrets: a second cookie pair in one `Set-Cookie`, and cookies joined by a comma. */
export function issue24Responses(p: Planted, learned: string) {
  return {
    "/cookies": (_: IncomingMessage, __: Buffer, res: ServerResponse) =>
      res
        .writeHead(200, {
          "set-cookie": [
            `a=1; Path=/; sid2=${p.text("second cookie pair in one Set-Cookie")}; HttpOnly`,
            `theme=dark; Expires=Wed, 21 Oct 2026 07:28:00 GMT, session=${p.text("cookie after a comma in one Set-Cookie")}; Secure`,
          ],
          "content-length": "0",
        })
        .end(),
    "/files": (_: IncomingMessage, __: Buffer, res: ServerResponse) => res.writeHead(204).end(),
    "/issue": (_: IncomingMessage, __: Buffer, res: ServerResponse) =>
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ access_token: learned })),
  };
}
