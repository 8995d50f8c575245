import type { Credentials } from "../runner/options.js";
import type { Role } from "../runner/tokens.js";
import type { RerunStep } from "./steps.js";

/** The recorded body of a token request, as form fields. */
export function tokenForm(step: RerunStep): URLSearchParams {
  const body = step.interaction.request.body;
  return new URLSearchParams(body && "text" in body ? body.text : "");
}

/** The access token placeholder a recorded token response gave, if any. */
function issuedToken(step: RerunStep): string | undefined {
  const body = step.interaction.response.body;
  const json = body && "json" in body ? (body.json as { access_token?: unknown } | null) : undefined;
  return typeof json?.access_token === "string" ? json.access_token : undefined;
}

/**
 * Which of the given clients replaces the recorded one: the one with the same client id, else the admin
 * client when a later request used the token on a route that needs `organization_admin` and succeeded,
 * else the reader.
 */
export function tokenRole(
  step: RerunStep,
  steps: readonly RerunStep[],
  clients: { reader: Credentials; admin: Credentials | undefined },
): Role {
  const clientId = tokenForm(step).get("client_id");
  if (clientId !== null && clients.admin && clientId === clients.admin.clientId) return "admin";
  if (clientId !== null && clientId === clients.reader.clientId) return "reader";
  const token = issuedToken(step);
  if (token === undefined) return "reader";
  const usedAsAdmin = steps.slice(step.index + 1).some((later) => {
    const header = later.interaction.request.headers.authorization;
    const value = Array.isArray(header) ? header[0] : header;
    const ok = later.interaction.response.status < 300;
    return ok && value?.includes(token) === true && later.match?.route.auth === "organization_admin";
  });
  return usedAsAdmin ? "admin" : "reader";
}
