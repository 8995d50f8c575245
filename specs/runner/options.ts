import { join } from "node:path";
import type { EntryId } from "../../contracts/index.js";
import type { IsoDay } from "../../core/dates.js";
import { AssopayError, httpUrl } from "../../core/errors.js";
import { contractsDir } from "../../core/paths.js";
import type { BrokerSource } from "../pact/child-protocol.js";
import type { PlannedPolicy } from "./types.js";

/** A client of the target's token endpoint. */
export interface Credentials {
  clientId: string;
  clientSecret: string;
}

/**
 * The optional admin client, from `--admin-client-id` and `--admin-client-secret` (or their environment
 * variables, as `read` finds them): both or neither; one alone is a usage error.
 *
 * @example adminCredentials((flag, variable) => flags[flag] ?? process.env[variable])
 */
export function adminCredentials(
  read: (flag: string, variable: string) => string | undefined,
): Credentials | undefined {
  const clientId = read("admin-client-id", "ASSOPAY_ADMIN_CLIENT_ID");
  const clientSecret = read("admin-client-secret", "ASSOPAY_ADMIN_CLIENT_SECRET");
  if ((clientId === undefined) !== (clientSecret === undefined)) {
    throw new AssopayError(
      "usage",
      "assopay verify: give both --admin-client-id and --admin-client-secret, or neither",
    );
  }
  return clientId && clientSecret ? { clientId, clientSecret } : undefined;
}

/**
 * How the target authenticates (DESIGN.md: the target's shape): clients of its token endpoint
 * (`POST {target}/oauth2/token`), fixed bearer tokens (a mock without a token endpoint), or not at all
 * (no `Authorization` header is sent).
 */
export type TargetAuth =
  | { readonly kind: "token-endpoint"; readonly reader: Credentials; readonly admin: Credentials | undefined }
  | { readonly kind: "bearer"; readonly reader: string; readonly admin: string | undefined }
  | { readonly kind: "none" };

/** A form named by its type and slug. */
export interface FormRef {
  formType: string;
  formSlug: string;
}

/** `--oracle FILE`: the ids each listing must hold, by listing route id (`readOracle`). */
export interface OracleFile {
  readonly file: string;
  readonly listings: Readonly<Record<string, readonly EntryId[]>>;
}

/** Everything a run needs, resolved once and frozen. */
export interface VerifyOptions {
  /** Base address of the target, without a trailing slash (the token endpoint sits at its root). */
  target: string;
  /**
   * The prefix under which the target serves the contract's `/v5` paths (`--api-root`): `/v5` (the
   * service), `""` (a mock of the provider's document, served at the root) or another one (`/api/v5`).
   */
  apiRoot: string;
  auth: TargetAuth;
  /** True when the target is the embedded sandbox started by the run. */
  embedded: boolean;
  /** Provider-state setup URL (Pact convention); absent when the target offers none. */
  stateUrl?: string;
  at: IsoDay;
  organizationSlug: string;
  formType: string;
  formSlug: string;
  /** Groups or check ids to run; empty runs everything. */
  only: readonly string[];
  planned: PlannedPolicy;
  /** Most pages one crawl may take when the number of entries is not known. */
  maxPages: number;
  /**
   * Most entries a listing may hold for the completeness crawls (at two more page sizes, and again to
   * confirm a loss); above it they are skipped, saying so (`--max-entries`).
   */
  maxEntries: number;
  /** Longest one crawl may take. */
  crawlTimeLimitMs: number;
  /** Longest one request may take, from sending it to its body's last byte (`--request-timeout`). */
  requestTimeoutMs: number;
  /** Requests in flight at once per target at most (`--concurrency`, default 4; 1: one at a time). */
  concurrency: number;
  /** Longest the whole run may take (`--timeout`); absent: no bound beyond each request's. */
  runTimeoutMs?: number;
  /** How long to wait for each expected notification. */
  notificationTimeoutMs: number;
  /** Page size asked for during crawls; absent lets the provider choose (its default, 20). */
  pageSize?: number;
  /** Entries asked of the "a form with entries" provider state. */
  seededEntries: number;
  /** Folder holding the Pact files. */
  pactDir: string;
  /** Without states: an order with an attached file (`--order-id`); else the orders are crawled for one. */
  orderId?: string;
  /** Without states: a form of the organization without orders (`--empty-form`); else the forms are listed. */
  emptyForm?: FormRef;
  /** Without states: an association registered recently and not verified (`--unverified-org`). */
  unverifiedOrg?: string;
  /** Public address that reaches the runner's receiver (a tunnel), for a target off this machine. */
  receiverUrl?: string;
  /** Port the runner's receiver listens on (default: any free port). */
  receiverPort?: number;
  /** Without states, when no event can be caused: how long to wait for any notification. */
  eventWaitMs: number;
  /** Without states: most orders whose detail is read while looking for an attached file. */
  maxOrderDetails: number;
  /** With `--publish-results`: the pacts come from this broker and the verification results go back to it. */
  pactBroker?: BrokerSource;
  /** Ids the listings must hold (`--oracle`): a loss every crawl shares is then confirmed. */
  oracle?: OracleFile;
}

/**
 * What a caller gives: the reader client (without the `organization_admin` right, or with it: it reads the
 * listings) and the optional admin one stand for a target with a token endpoint; `auth` for any other.
 */
export type VerifyOptionsInput = Partial<VerifyOptions> &
  Pick<VerifyOptions, "target" | "at" | "organizationSlug" | "formType" | "formSlug"> & {
    reader?: Credentials;
    admin?: Credentials | undefined;
  };

export const DEFAULTS = Object.freeze({
  maxPages: 10_000,
  maxEntries: 10_000,
  crawlTimeLimitMs: 10 * 60_000,
  requestTimeoutMs: 30_000,
  concurrency: 4,
  notificationTimeoutMs: 5_000,
  seededEntries: 45,
  eventWaitMs: 30_000,
  maxOrderDetails: 50,
});

/** The target's base URL without a trailing slash; a usage error for anything but an http(s) host root. */
export function normalizeTarget(text: string): string {
  const example = URL.canParse(text) ? "http://127.0.0.1:3000" : "https://api.helloasso-sandbox.com";
  const url = new URL(requireHttpUrl("--target", text, `for example --target ${example}`));
  const base = `${url.origin}${url.pathname}`.replace(/\/+$/, "");
  if (/\/v[35]$/i.test(base)) {
    throw new AssopayError("usage", `--target must be the host root, not the API prefix: "${text}"`, {
      hint: `use --target ${base.replace(/\/v[35]$/i, "")} (the token endpoint sits at the root)`,
    });
  }
  return base;
}

/**
 * `--api-root PATH` as a prefix without a trailing slash: `/` is the root (`""`), `/api/v5/` is `/api/v5`.
 * @example normalizeApiRoot("/") // ""
 */
export function normalizeApiRoot(text: string): string {
  if (!/^\/[A-Za-z0-9._~!$&'()*+,;=:@%/-]*$/.test(text)) {
    throw new AssopayError("usage", `--api-root must be a path starting with /, got "${text}"`, {
      hint: "the prefix of the target's v5 paths: --api-root / for a mock serving them at its root, --api-root /api/v5",
    });
  }
  return text.replace(/\/+$/, "");
}

/**
 * `--empty-form TYPE/SLUG`, or `SLUG` alone for a form of the `--form-type` type.
 * @example parseFormRef("Membership/adhesion-2025", "Event") // {formType: "Membership", formSlug: "adhesion-2025"}
 */
export function parseFormRef(text: string, defaultType: string): FormRef {
  const parts = text.split("/");
  const [first, second] = parts;
  if (parts.length === 1 && first) return { formType: defaultType, formSlug: first };
  if (parts.length === 2 && first && second) return { formType: first, formSlug: second };
  throw new AssopayError("usage", `--empty-form must be TYPE/SLUG or SLUG, got "${text}"`, {
    hint: "for example --empty-form Membership/adhesion-2025",
  });
}

/**
 * `text` as an http(s) URL (`url.toString()`, read by core's `httpUrl`); a usage error naming `flag` otherwise.
 * @example requireHttpUrl("--state-url", "http://127.0.0.1:3000/_states", hint) // "http://127.0.0.1:3000/_states"
 */
export function requireHttpUrl(flag: string, text: string, hint: string): string {
  const url = httpUrl(text);
  if (url) return url.toString();
  throw new AssopayError("usage", `${flag} must be an http(s) URL, got "${text}"`, { hint });
}

/**
 * Fills the defaults (for what is left out or given as undefined), reads the addresses and freezes the
 * result. The numbers are checked here too, for a caller in code: the command line checks each flag where
 * it reads it (`cli/flags.ts`), with the text it was given.
 */
export function resolveOptions(input: VerifyOptionsInput): VerifyOptions {
  const { reader, admin, ...rest } = input;
  const auth = input.auth ?? (reader && { kind: "token-endpoint" as const, reader, admin });
  if (!auth) throw new AssopayError("internal", "verify options without a reader client nor auth");
  const given = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined));
  const resolved: VerifyOptions = Object.freeze({
    ...DEFAULTS,
    embedded: false,
    planned: "fail",
    pactDir: join(contractsDir(), "pacts"),
    ...(given as typeof rest),
    target: normalizeTarget(input.target),
    apiRoot: input.apiRoot === undefined ? "/v5" : normalizeApiRoot(input.apiRoot),
    auth,
    only: Object.freeze([...(input.only ?? [])]),
    stateUrl:
      input.stateUrl === undefined
        ? undefined
        : requireHttpUrl(
            "--state-url",
            input.stateUrl,
            "for example --state-url http://127.0.0.1:3000/_states",
          ),
    receiverUrl:
      input.receiverUrl === undefined
        ? undefined
        : requireHttpUrl(
            "--receiver-url",
            input.receiverUrl,
            "the public address of a tunnel to --receiver-port, for example --receiver-url https://abc.example-tunnel.dev",
          ).replace(/\/+$/, ""),
  });
  for (const name of [
    ...(Object.keys(DEFAULTS) as (keyof typeof DEFAULTS)[]),
    "pageSize",
    "runTimeoutMs",
  ] as const) {
    const value = resolved[name];
    if (value !== undefined && !(Number.isInteger(value) && value >= 1)) {
      throw new AssopayError("usage", `${name} must be a whole number above 0, got ${value}`);
    }
  }
  const port = resolved.receiverPort;
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65_535)) {
    throw new AssopayError("usage", `--receiver-port must be a port from 0 to 65535, got ${port}`);
  }
  return resolved;
}
