import { createHmac } from "node:crypto";

/**
 * The `token-expiry` scenario's doing: the access token in use on the first call that carries a
 * continuation token expires there (401), and stays refused. Any later token works. When the upstream
 * hands the same access token out again (a replayed cassette does), the client gets an alias of it, so
 * that a fresh token is always distinguishable from the expired one.
 */
export interface AccessGuard {
  /** Whether this `Authorization` header is refused (an expired token). */
  refuses(authorization: string): boolean;
  /** Expires the token of this header, once per run. True when it did (the gate then answers 401). */
  expireOnce(authorization: string): boolean;
  /** The header to send upstream (aliases resolved). */
  upstreamAuthorization(authorization: string): string;
  /** Rewrites a token endpoint's JSON answer when it repeats an expired access token. */
  issued(body: unknown): unknown;
}

const BEARER = /^\s*Bearer\s+(\S+)\s*$/i;

/** A guard that never refuses: every scenario but `token-expiry`. */
export const openAccess: AccessGuard = Object.freeze({
  refuses: () => false,
  expireOnce: () => false,
  upstreamAuthorization: (authorization: string) => authorization,
  issued: (body: unknown) => body,
});

export function createExpiringAccess(seed: string): AccessGuard {
  const expired = new Set<string>();
  const aliases = new Map<string, string>();
  let done = false;
  let counter = 0;
  const tokenOf = (authorization: string) => BEARER.exec(authorization)?.[1] ?? authorization;
  return {
    refuses: (authorization) => expired.has(tokenOf(authorization)),
    expireOnce(authorization) {
      if (done) return false;
      done = true;
      expired.add(tokenOf(authorization));
      return true;
    },
    upstreamAuthorization(authorization) {
      const upstream = aliases.get(tokenOf(authorization));
      return upstream === undefined ? authorization : `Bearer ${upstream}`;
    },
    issued(body) {
      if (typeof body !== "object" || body === null) return body;
      const access = (body as Record<string, unknown>).access_token;
      if (typeof access !== "string" || !expired.has(access)) return body;
      counter += 1;
      const alias = createHmac("sha256", seed).update(`alias:${counter}:${access}`).digest("base64url");
      aliases.set(alias, access);
      return { ...body, access_token: alias };
    },
  };
}
