import type { Contract } from "../contracts/index.js";
import type { IsoDay } from "../core/dates.js";
import { AssopayError } from "../core/errors.js";
import { bodyBytes } from "../proxy/cassette/body.js";
import type { Interaction } from "../proxy/cassette/format.js";
import { firstHeader } from "../proxy/http/message.js";
import { loadCassette, startReplay } from "../proxy/index.js";
import { credentialsEnv, type SandboxData, type Shapes, startSandbox } from "../sandbox/index.js";
import type { Scenario } from "./scenarios.js";

/**
 * What the layer stands in front of: a fresh sandbox per scenario, a replay of cassettes, or a running
 * server of the user's choosing (the provider's sandbox, a mock, a replay run elsewhere).
 */
export type UpstreamSpec =
  | {
      readonly kind: "sandbox";
      readonly entries: number;
      readonly seed: number;
      /** Your own data (`--data`): the sandbox announces its main form to the command. */
      readonly data?: SandboxData;
      /** Whose shape wins where the seed and the provider's document disagree (`--shapes`). */
      readonly shapes: Shapes;
    }
  | { readonly kind: "replay"; readonly cassettes: readonly string[] }
  | {
      readonly kind: "url";
      /** The service's root: token at `URL/oauth2/token`, API under `URL/v5` (a path prefix is kept). */
      readonly url: string;
      /** The login variables the command gets, from the caller (flags or environment). */
      readonly login: Readonly<Record<string, string>>;
    };

/** A running upstream and the login details the command gets (`ASSOPAY_*` without the URLs). */
export interface RunningUpstream {
  readonly url: string;
  readonly login: Readonly<Record<string, string>>;
  /** Rewrites a token request's body before it goes upstream (a replay swaps the stand-in secret). */
  readonly tokenBody?: (body: Buffer) => Buffer;
  close(): Promise<void>;
}

/**
 * The login variables the command gets, each by the flag of the verb that sets it; with `--upstream` the
 * first five are required.
 */
export const LOGIN_FLAGS = {
  "client-id": "ASSOPAY_CLIENT_ID",
  "client-secret": "ASSOPAY_CLIENT_SECRET",
  organization: "ASSOPAY_ORG",
  "form-type": "ASSOPAY_FORM_TYPE",
  "form-slug": "ASSOPAY_FORM_SLUG",
  "admin-client-id": "ASSOPAY_ADMIN_CLIENT_ID",
  "admin-client-secret": "ASSOPAY_ADMIN_CLIENT_SECRET",
} as const;

const LOGIN = Object.values(LOGIN_FLAGS);

/**
 * The login variables for a server of the user's choosing, from the caller's environment: a reader
 * client and the form to crawl are required; the admin client defaults to the reader.
 */
export function urlLogin(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const missing = LOGIN.slice(0, 5).filter((name) => !env[name]);
  if (missing.length > 0) {
    throw new AssopayError("usage", `assopay gate --upstream needs ${missing.join(", ")}`, {
      hint: "give them as variables, or as --client-id, --client-secret, --organization, --form-type, --form-slug",
    });
  }
  const login: Record<string, string> = {};
  for (const name of LOGIN) login[name] = env[name] ?? "";
  login.ASSOPAY_ADMIN_CLIENT_ID ||= login.ASSOPAY_CLIENT_ID ?? "";
  login.ASSOPAY_ADMIN_CLIENT_SECRET ||= login.ASSOPAY_CLIENT_SECRET ?? "";
  return login;
}

/**
 * Why an upstream cannot play a scenario, or `undefined` when it can: the gate sets the date of a sandbox
 * or a replay, never of a running server; only the sandbox's listings grow.
 */
export function cannotPlay(kind: UpstreamSpec["kind"], scenario: Scenario): string | undefined {
  if (scenario.date.kind !== "given" && kind === "url") return "a running server keeps its own date";
  if (scenario.growing && kind !== "sandbox") return "only the embedded sandbox's listings grow";
  return undefined;
}

/**
 * Starts the upstream of one scenario at its date. The sandbox announces its own credentials; a replay
 * takes them from the caller's environment (`ASSOPAY_CLIENT_ID` …), else from what the cassettes show;
 * a running server is already there, with the login the caller gave.
 */
export async function startUpstream(
  spec: UpstreamSpec,
  scenario: Scenario,
  at: IsoDay,
  contract: Contract,
  env: Readonly<Record<string, string | undefined>>,
): Promise<RunningUpstream> {
  switch (spec.kind) {
    case "sandbox": {
      const sandbox = await startSandbox({
        port: 0,
        at,
        entries: spec.entries,
        seed: spec.seed,
        contract,
        shapes: spec.shapes,
        growing: scenario.growing,
        ...(spec.data ? { data: spec.data } : {}),
      });
      return { url: sandbox.url, login: credentialsEnv(sandbox.credentials), close: () => sandbox.close() };
    }
    case "replay": {
      const replay = await startReplay({ cassettes: spec.cassettes, port: 0, at, contract });
      const login = await cassetteEnv(spec.cassettes, contract, env);
      return { url: replay.url, login: login.env, tokenBody: login.tokenBody, close: () => replay.close() };
    }
    case "url":
      return { url: spec.url, login: spec.login, close: async () => undefined };
  }
}

/**
 * The secret a command gets for a recorded client whose secret the caller did not give. The layer in
 * front of the replay swaps it for the recorded placeholder, so the command logs in as recorded; any
 * other secret reaches the replay as sent (and is refused there when it is not the recorded one).
 */
export const REPLAYED_SECRET = "assopay-replayed-client-secret";

const STAND_IN_PAIR = new RegExp(`(^|&)client_secret=${REPLAYED_SECRET}(?=&|$)`);

/** A client that logged in while recording: its id, and its secret as the cassette holds it. */
interface RecordedClient {
  readonly clientId: string;
  readonly secretPlaceholder: string | undefined;
  /** Whether a token it got was used on a route that needs organization_admin. */
  admin: boolean;
  readonly accessTokens: Set<string>;
}

function accessTokenOf(interaction: Interaction): string | undefined {
  const body = interaction.response.body;
  const json = body && "json" in body ? (body.json as { access_token?: unknown }) : undefined;
  return typeof json?.access_token === "string" ? json.access_token : undefined;
}

/**
 * What the cassettes show of a login: the first listing's organization and form, and the clients of the
 * token requests, each marked admin when its token opened an admin route.
 */
function recordedLogin(interactions: readonly Interaction[], contract: Contract) {
  const clients = new Map<string, RecordedClient>();
  const names: Record<string, string> = {};
  for (const interaction of interactions) {
    const { request } = interaction;
    const match = contract.routes.match(request.method, request.path);
    const { organizationSlug, formType, formSlug } = match?.params ?? {};
    if (organizationSlug && names.ASSOPAY_ORG === undefined) names.ASSOPAY_ORG = organizationSlug;
    if (formType && formSlug && names.ASSOPAY_FORM_TYPE === undefined) {
      names.ASSOPAY_FORM_TYPE = formType;
      names.ASSOPAY_FORM_SLUG = formSlug;
    }
    if (match?.route.id === "token") {
      const form = new URLSearchParams(bodyBytes(request.body).toString("utf8"));
      const clientId = form.get("client_id");
      if (!clientId) continue;
      const client = clients.get(clientId) ?? {
        clientId,
        secretPlaceholder: form.get("client_secret") ?? undefined,
        admin: false,
        accessTokens: new Set<string>(),
      };
      const token = accessTokenOf(interaction);
      if (token !== undefined) client.accessTokens.add(token);
      clients.set(clientId, client);
    } else if (match?.route.auth === "organization_admin") {
      const bearer = firstHeader(request.headers, "authorization")?.replace(/^Bearer\s+/i, "");
      for (const client of clients.values())
        if (bearer && client.accessTokens.has(bearer)) client.admin = true;
    }
  }
  return { clients: [...clients.values()], names };
}

/**
 * The login details a command needs against a replay, every variable docs/gate.md lists: each taken from
 * the caller's environment when set, else from the cassettes (the first listing's organization and form;
 * the reader and the admin client from the token requests, the admin being the one whose token opened an
 * organization_admin route; a cassette with one client gives it for both). Secrets are never in a
 * cassette: a secret the caller does not give is the stand-in {@link REPLAYED_SECRET}, which the layer
 * swaps for the recorded placeholder.
 */
export async function cassetteEnv(
  cassettes: readonly string[],
  contract: Contract,
  env: Readonly<Record<string, string | undefined>>,
): Promise<{ env: Record<string, string>; tokenBody(body: Buffer): Buffer }> {
  const interactions: Interaction[] = [];
  for (const file of cassettes) interactions.push(...(await loadCassette(file)).interactions);
  const { clients, names } = recordedLogin(interactions, contract);
  const admin = clients.find((c) => c.admin) ?? clients[0];
  const reader = clients.find((c) => !c.admin) ?? admin;
  const found: Record<string, string | undefined> = {
    ...names,
    ASSOPAY_CLIENT_ID: reader?.clientId,
    ASSOPAY_CLIENT_SECRET: reader ? REPLAYED_SECRET : undefined,
    ASSOPAY_ADMIN_CLIENT_ID: admin?.clientId,
    ASSOPAY_ADMIN_CLIENT_SECRET: admin ? REPLAYED_SECRET : undefined,
  };
  const login: Record<string, string> = {};
  for (const [name, value] of Object.entries(found)) {
    const chosen = env[name] ?? value;
    if (chosen !== undefined) login[name] = chosen;
  }
  const placeholders = new Map(clients.map((c) => [c.clientId, c.secretPlaceholder]));
  return {
    env: login,
    /** A token request body with the stand-in secret swapped for the recorded placeholder. */
    tokenBody(body) {
      const text = body.toString("utf8");
      const placeholder = placeholders.get(new URLSearchParams(text).get("client_id") ?? "");
      if (placeholder === undefined) return body;
      // Raw text, as the cassette holds it: the stand-in needs no percent-encoding, the placeholder none.
      const swapped = text.replace(
        STAND_IN_PAIR,
        (_pair, lead: string) => `${lead}client_secret=${placeholder}`,
      );
      return swapped === text ? body : Buffer.from(swapped, "utf8");
    },
  };
}
