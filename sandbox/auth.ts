import { createHmac, randomBytes } from "node:crypto";
import type { AuthRequirement } from "../contracts/index.js";
import { placeholderFor, WHOLE_PLACEHOLDER } from "../core/secrets/placeholder.js";
import type { DeclaredClient } from "./data/model.js";

/** Refresh tokens last 30 days, as reported for the service. */
const REFRESH_TTL_MS = 30 * 86_400_000;

/** An API client of the partner (the two ready-made ones, those a data file declares, those states add). */
export type Client = DeclaredClient;

export type Authentication =
  | { ok: true; client: Client }
  | { ok: false; reason: "missing" | "invalid" | "expired" };

interface Grant {
  client: Client;
  expiresMs: number;
}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

/**
 * Whether `given` is `client`'s secret: the same text, or, for a client whose secret a recording holds as
 * a placeholder (`--from-cassette`), a secret whose placeholder it is under `salt` (the cassette's salt):
 * the recorded app's own secret is accepted without the sandbox ever holding it.
 */
function secretOf(client: Client, given: string, salt: string | undefined): boolean {
  if (client.secret === given) return true;
  return WHOLE_PLACEHOLDER.test(client.secret) && placeholderFor(given, salt) === client.secret;
}

/**
 * Clients (the ready-made two, those a data file declares) and bearer tokens, expiring on the sandbox
 * clock. `salt` is the salt of the placeholders declared secrets may be (see {@link secretOf}).
 */
export function createAuth(
  derive: (purpose: string) => string,
  ttlSeconds: number,
  nowMs: () => number,
  declared: readonly Client[] = [],
  salt?: string,
) {
  const admin: Client = {
    id: "assopay-admin",
    secret: `adm_${derive("admin").slice(0, 24)}`,
    rights: ["organization_admin"],
  };
  const reader: Client = { id: "assopay-reader", secret: `rdr_${derive("reader").slice(0, 24)}`, rights: [] };
  const signingKey = derive("jwt");
  const added = new Map<string, Client>();
  const access = new Map<string, Grant>();
  const refreshTokens = new Map<string, Grant>();

  const prune = () => {
    const now = nowMs();
    for (const [token, grant] of access) if (grant.expiresMs <= now) access.delete(token);
    for (const [token, grant] of refreshTokens) if (grant.expiresMs <= now) refreshTokens.delete(token);
  };

  /** A JWT-shaped access token, as the service issues (SDKs sometimes read its `exp`). */
  const jwt = (client: Client, expiresMs: number) => {
    const head = `${base64url({ alg: "HS256", typ: "JWT" })}.${base64url({
      jti: randomBytes(12).toString("hex"),
      sub: client.id,
      urs: client.rights.includes("organization_admin") ? "OrganizationAdmin" : "",
      iat: Math.floor(nowMs() / 1000),
      exp: Math.floor(expiresMs / 1000),
    })}`;
    return `${head}.${createHmac("sha256", signingKey).update(head).digest("base64url")}`;
  };

  /** The token endpoint's answer. */
  const issue = (client: Client) => {
    prune();
    const expiresMs = nowMs() + ttlSeconds * 1000;
    const accessToken = jwt(client, expiresMs);
    const refreshToken = randomBytes(24).toString("base64url");
    access.set(accessToken, { client, expiresMs });
    refreshTokens.set(refreshToken, { client, expiresMs: nowMs() + REFRESH_TTL_MS });
    return {
      access_token: accessToken,
      refresh_token: refreshToken,
      token_type: "bearer" as const,
      expires_in: ttlSeconds,
    };
  };

  return {
    admin,
    reader,
    client(id: string, secret: string): Client | undefined {
      return [admin, reader, ...declared, ...added.values()].find(
        (c) => c.id === id && secretOf(c, secret, salt),
      );
    },
    /** Adds (or replaces) a client, for the provider state "an API client". */
    addClient(client: Client): Client {
      added.set(client.id, client);
      return client;
    },
    /** Forgets added clients and their tokens (provider-state teardown). */
    reset() {
      added.clear();
      for (const grants of [access, refreshTokens]) {
        for (const [token, grant] of grants)
          if (grant.client !== admin && grant.client !== reader && !declared.includes(grant.client))
            grants.delete(token);
      }
    },
    issue,
    refresh(clientId: string | undefined, refreshToken: string) {
      const grant = refreshTokens.get(refreshToken);
      if (!grant || grant.expiresMs <= nowMs()) return undefined;
      if (clientId !== undefined && clientId !== grant.client.id) return undefined;
      refreshTokens.delete(refreshToken);
      return issue(grant.client);
    },
    /** Reads `Authorization: Bearer …`. */
    authenticate(header: string | undefined): Authentication {
      const match = /^\s*Bearer\s+(\S+)\s*$/i.exec(header ?? "");
      if (!header || header.trim() === "") return { ok: false, reason: "missing" };
      const grant = match?.[1] ? access.get(match[1]) : undefined;
      if (!grant) return { ok: false, reason: "invalid" };
      if (grant.expiresMs <= nowMs()) return { ok: false, reason: "expired" };
      return { ok: true, client: grant.client };
    },
    /** Whether a client may call a route needing `requirement` (authentication already done). */
    allows: (client: Client, requirement: AuthRequirement) =>
      requirement !== "organization_admin" || client.rights.includes("organization_admin"),
  };
}

export type Auth = ReturnType<typeof createAuth>;
