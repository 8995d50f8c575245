import type { RouteHandler } from "../core.js";
import { sendJson, sendOAuthError } from "../http.js";

/** Client id and secret from HTTP Basic, when the client sends them that way (and they decode). */
function basicCredentials(header: string | undefined): { id: string; secret: string } | undefined {
  const match = /^\s*Basic\s+(\S+)\s*$/i.exec(header ?? "");
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon === -1) return undefined;
  try {
    return {
      id: decodeURIComponent(decoded.slice(0, colon)),
      secret: decodeURIComponent(decoded.slice(colon + 1)),
    };
  } catch {
    return undefined;
  }
}

/**
 * `POST /oauth2/token`, form-encoded: `client_credentials` (secret in the body or in HTTP Basic) and
 * `refresh_token`. Errors use the OAuth shape `{error, error_description}`.
 */
export const tokenHandler: RouteHandler = async (core, ex) => {
  const raw = await ex.body();
  const contentType = (ex.req.headers["content-type"] ?? "").toLowerCase();
  if (raw === undefined || !contentType.startsWith("application/x-www-form-urlencoded")) {
    sendOAuthError(ex, 400, "invalid_request", "send the token request as application/x-www-form-urlencoded");
    return;
  }
  const form = new URLSearchParams(raw.toString("utf8"));
  const grantType = form.get("grant_type");
  switch (grantType) {
    case "client_credentials": {
      const basic = basicCredentials(ex.req.headers.authorization);
      const id = form.get("client_id") ?? basic?.id;
      const secret = form.get("client_secret") ?? basic?.secret;
      if (!id || !secret) {
        sendOAuthError(
          ex,
          400,
          "invalid_request",
          "client_id and client_secret are required (form body or HTTP Basic)",
        );
        return;
      }
      const client = core.auth.client(id, secret);
      if (!client) {
        sendOAuthError(ex, 401, "invalid_client", "unknown client_id or wrong client_secret");
        return;
      }
      sendJson(ex, 200, core.auth.issue(client));
      return;
    }
    case "refresh_token": {
      const refreshToken = form.get("refresh_token");
      if (!refreshToken) {
        sendOAuthError(ex, 400, "invalid_request", "refresh_token is required");
        return;
      }
      const issued = core.auth.refresh(form.get("client_id") ?? undefined, refreshToken);
      if (!issued) {
        sendOAuthError(
          ex,
          400,
          "invalid_grant",
          "the refresh token is unknown, expired, already used or not yours",
        );
        return;
      }
      sendJson(ex, 200, issued);
      return;
    }
    default:
      sendOAuthError(
        ex,
        400,
        grantType ? "unsupported_grant_type" : "invalid_request",
        grantType
          ? `the sandbox issues tokens for client_credentials and refresh_token, not ${grantType}`
          : "grant_type is required",
      );
  }
};
