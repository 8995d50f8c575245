import { AssopayError } from "../../core/errors.js";
import { type HttpClient, type HttpExchange, isSuccess, parseJson, TransportError } from "./http.js";
import type { Credentials, TargetAuth } from "./options.js";

/** Which client a request speaks as. */
export type Role = "reader" | "admin";

export interface TokenSource {
  /** Whether verify can speak as that role (its client or token was given, or the target asks for none). */
  has(role: Role): boolean;
  /**
   * A valid access token for the role: fetched once and renewed before it expires, or the fixed one
   * given; `no-auth` for a target that authenticates nobody (what a pact's provider state hands over).
   */
  token(role: Role): Promise<string>;
  /** `Bearer <token>`; absent for a target that authenticates nobody (`--no-auth`). */
  authorization(role: Role): Promise<string | undefined>;
}

/** Why the checks that judge authentication skip under `--no-auth`. */
export const NO_AUTH =
  "the target authenticates nobody (--no-auth), so there is no authentication to judge; drop --no-auth to judge it";

/**
 * Why the checks that need organization_admin skip: no admin client or token was given, in the words of
 * the flags the run's kind of authentication takes.
 */
const NO_ADMIN: Readonly<Record<TargetAuth["kind"], string>> = {
  "token-endpoint": "no organization_admin client was given (--admin-client-id, --admin-client-secret)",
  bearer: "no organization_admin token was given (--admin-bearer)",
  none: NO_AUTH,
};
export const noAdminReason = (auth: TargetAuth): string => NO_ADMIN[auth.kind];

const RENEW_MARGIN_MS = 60_000;

/** Form-encodes a `client_credentials` request, as the service's token endpoint expects. */
export function clientCredentialsBody(credentials: Credentials): string {
  return new URLSearchParams({
    grant_type: "client_credentials",
    client_id: credentials.clientId,
    client_secret: credentials.clientSecret,
  }).toString();
}

/** The flags of a target without a token endpoint, as the messages name them. */
const WITHOUT_TOKEN_ENDPOINT =
  "a target without a token endpoint (a mock of the provider's document) takes --bearer TOKEN or --no-auth, and --api-root / when it serves the paths without /v5";

/**
 * What a failed token request says: a 400 or 401 from a token endpoint that exists blames the
 * credentials; a 404 or 405 names the missing endpoint; anything else is the target's answer, as it came.
 */
function tokenFailure(role: Role, exchange: HttpExchange): AssopayError {
  const answered = `POST ${exchange.request.url} answered ${exchange.status} ${exchange.text.slice(0, 200)}`;
  if (exchange.status === 400 || exchange.status === 401) {
    return new AssopayError("usage", `the target refused the ${role} credentials: ${answered}`, {
      hint:
        role === "admin"
          ? "check --admin-client-id and --admin-client-secret (or ASSOPAY_ADMIN_CLIENT_ID/_SECRET)"
          : "check --client-id and --client-secret (or ASSOPAY_CLIENT_ID/_SECRET)",
    });
  }
  if (exchange.status === 404 || exchange.status === 405) {
    return new AssopayError("usage", `the target has no token endpoint: ${answered}`, {
      hint: `no credential was judged; check that --target is the host root, or: ${WITHOUT_TOKEN_ENDPOINT}`,
    });
  }
  return new AssopayError("unreachable", `the target's token endpoint gave no token: ${answered}`, {
    hint: `no credential was judged; ${WITHOUT_TOKEN_ENDPOINT}`,
  });
}

/**
 * Tokens of the reader and admin roles, as the target authenticates them. A refused credential is the
 * user's mistake (exit 2), and no answer at all means the target is unreachable (exit 2): neither is a
 * verdict on a rule.
 */
export function createTokenSource(
  http: HttpClient,
  target: string,
  auth: TargetAuth,
  now: () => number = Date.now,
): TokenSource {
  if (auth.kind !== "token-endpoint") {
    const fixed = (role: Role) => (auth.kind === "none" ? "no-auth" : auth[role]);
    const token = async (role: Role) => fixed(role) ?? missingRole(role);
    return {
      has: (role) => fixed(role) !== undefined,
      token,
      authorization: async (role) => (auth.kind === "none" ? undefined : `Bearer ${await token(role)}`),
    };
  }
  const credentials: Readonly<Record<Role, Credentials | undefined>> = auth;
  const cache = new Map<Role, { token: string; expiresAt: number }>();
  const inflight = new Map<Role, Promise<string>>();

  const fetchToken = async (role: Role, given: Credentials): Promise<string> => {
    let exchange: HttpExchange;
    try {
      exchange = await http.send({
        method: "POST",
        url: `${target}/oauth2/token`,
        body: { contentType: "application/x-www-form-urlencoded", text: clientCredentialsBody(given) },
      });
    } catch (error) {
      if (error instanceof TransportError) {
        throw new AssopayError("unreachable", `the target does not answer: ${error.message}`, {
          hint: error.timedOut
            ? "the target took the connection but sent no answer: check that it is the provider, or raise --request-timeout"
            : "check --target (or ASSOPAY_TARGET) and that the provider is running",
          cause: error,
        });
      }
      throw error;
    }
    if (!isSuccess(exchange.status)) throw tokenFailure(role, exchange);
    const parsed = parseJson(exchange);
    const body = parsed.ok ? (parsed.value as { access_token?: unknown; expires_in?: unknown }) : undefined;
    if (!body || typeof body.access_token !== "string" || body.access_token === "") {
      throw new AssopayError(
        "unreachable",
        `the target's token endpoint answered without an access_token: ${exchange.text.slice(0, 200)}`,
        { hint: "check that --target is the provider's host root (POST {target}/oauth2/token)" },
      );
    }
    const lifetime = typeof body.expires_in === "number" && body.expires_in > 0 ? body.expires_in : 1800;
    cache.set(role, {
      token: body.access_token,
      expiresAt: now() + Math.max(lifetime * 1000 - RENEW_MARGIN_MS, lifetime * 500),
    });
    return body.access_token;
  };

  const token = async (role: Role): Promise<string> => {
    const cached = cache.get(role);
    if (cached && cached.expiresAt > now()) return cached.token;
    const given = credentials[role];
    if (!given) return missingRole(role);
    const running = inflight.get(role);
    if (running) return running;
    const started = fetchToken(role, given).finally(() => inflight.delete(role));
    inflight.set(role, started);
    return started;
  };

  return {
    has: (role) => credentials[role] !== undefined,
    token,
    authorization: async (role) => `Bearer ${await token(role)}`,
  };
}

function missingRole(role: Role): never {
  throw new AssopayError("internal", `no ${role} credentials were given`, {
    hint: "a check asked for a role it should have skipped without",
  });
}
