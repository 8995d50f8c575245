import type { Contract } from "../contracts/index.js";
import { loadCassette } from "../proxy/index.js";

const NAMES = [
  "ASSOPAY_CLIENT_ID",
  "ASSOPAY_CLIENT_SECRET",
  "ASSOPAY_ADMIN_CLIENT_ID",
  "ASSOPAY_ADMIN_CLIENT_SECRET",
  "ASSOPAY_ORG",
  "ASSOPAY_FORM_TYPE",
  "ASSOPAY_FORM_SLUG",
] as const;

/**
 * The login details a command needs against a replay: each taken from the caller's environment when
 * set, else read from the cassettes (the first listing's organization and form, the client id of the
 * first token request). Secrets are never in a cassette: the caller's `ASSOPAY_CLIENT_SECRET` must be the
 * one used while recording, since the replay matches requests through the same placeholders.
 */
export async function cassetteEnv(
  cassettes: readonly string[],
  contract: Contract,
  env: Readonly<Record<string, string | undefined>>,
): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  for (const file of cassettes) {
    const cassette = await loadCassette(file);
    for (const { request } of cassette.interactions) {
      const match = contract.routes.match(request.method, request.path);
      if (!match) continue;
      const { organizationSlug, formType, formSlug } = match.params;
      if (organizationSlug && found.ASSOPAY_ORG === undefined) found.ASSOPAY_ORG = organizationSlug;
      if (formType && formSlug && found.ASSOPAY_FORM_TYPE === undefined) {
        found.ASSOPAY_FORM_TYPE = formType;
        found.ASSOPAY_FORM_SLUG = formSlug;
      }
      const body = request.body && "text" in request.body ? request.body.text : undefined;
      if (match.route.id === "token" && body !== undefined && found.ASSOPAY_CLIENT_ID === undefined) {
        const clientId = new URLSearchParams(body).get("client_id");
        if (clientId) found.ASSOPAY_CLIENT_ID = clientId;
      }
    }
  }
  const login: Record<string, string> = {};
  for (const name of NAMES) {
    const value = env[name] ?? found[name];
    if (value !== undefined) login[name] = value;
  }
  return login;
}
