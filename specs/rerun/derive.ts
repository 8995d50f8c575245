import type { HttpMethod } from "../../contracts/index.js";
import { firstHeader, queryParams } from "../../proxy/http/message.js";
import type { HttpRequest } from "../runner/http.js";
import { clientCredentialsBody, type Role, type TokenSource } from "../runner/tokens.js";
import { type Listings, TOKEN_PARAM } from "./listings.js";
import type { RerunOptions } from "./options.js";
import { type RerunStep, recordedJson } from "./steps.js";
import { isIdKey, type LearntValues } from "./values.js";

/** The recorded body of a token request, as form fields. */
export function tokenForm(step: RerunStep): URLSearchParams {
  const body = step.interaction.request.body;
  return new URLSearchParams(body && "text" in body ? body.text : "");
}

/**
 * Which of the given clients replaces the recorded one: the one with the same client id, else the admin
 * client when a later request used the token on a route that needs `organization_admin` and succeeded,
 * else the reader.
 */
export function tokenRole(
  step: RerunStep,
  steps: readonly RerunStep[],
  clients: Pick<RerunOptions, "reader" | "admin">,
): Role {
  const clientId = tokenForm(step).get("client_id");
  if (clientId !== null && clients.admin && clientId === clients.admin.clientId) return "admin";
  if (clientId !== null && clientId === clients.reader.clientId) return "reader";
  // The access token placeholder the recorded token response gave, if any.
  const token = (recordedJson(step) as { access_token?: unknown } | null | undefined)?.access_token;
  if (typeof token !== "string") return "reader";
  const usedAsAdmin = steps.slice(step.index + 1).some((later) => {
    const value = firstHeader(later.interaction.request.headers, "authorization");
    const ok = later.interaction.response.status < 300;
    return ok && value?.includes(token) === true && later.match?.route.auth === "organization_admin";
  });
  return usedAsAdmin ? "admin" : "reader";
}

/** What deriving needs: the values learnt so far, the listings, the target and its given clients. */
export interface DeriveContext {
  options: Pick<RerunOptions, "target" | "reader" | "admin">;
  steps: readonly RerunStep[];
  values: LearntValues;
  listings: Listings;
  tokens: TokenSource;
}

/** The request to send, or why it cannot be made from what the target gave. */
export type Derived =
  | { ok: true; request: HttpRequest; sentQuery: URLSearchParams }
  | { ok: false; reason: string };

class Underivable extends Error {}

const METHODS: readonly HttpMethod[] = ["GET", "POST", "PUT", "DELETE"];
const KEPT_HEADERS = ["accept", "accept-language"];

function substitute(values: LearntValues, recorded: string): string {
  const found = values.resolve(recorded);
  if (found === undefined) return recorded;
  if (!found.ok) throw new Underivable(found.reason);
  return found.value;
}

function derivePath(step: RerunStep, values: LearntValues): string {
  const parts = step.interaction.request.path.split("/");
  const template = step.match?.route.path.split("/");
  return parts
    .map((part, i) => {
      const param = /^\{(.+)\}$/.exec(template?.[i] ?? "")?.[1];
      const isParam = template ? param !== undefined && isIdKey(param) : true;
      if (!isParam || part === "") return part;
      let decoded: string;
      try {
        decoded = decodeURIComponent(part);
      } catch {
        return part;
      }
      return values.knows(decoded) ? encodeURIComponent(substitute(values, decoded)) : part;
    })
    .join("/");
}

function deriveQuery(step: RerunStep, ctx: DeriveContext): URLSearchParams {
  const query = new URLSearchParams();
  for (const [name, one] of queryParams(step.interaction.request.query)) {
    if (name.toLowerCase() === TOKEN_PARAM) {
      const next = ctx.listings.nextToken(step);
      if (!next.ok) throw new Underivable(next.reason);
      query.append(name, next.token);
    } else {
      query.append(name, isIdKey(name) ? substitute(ctx.values, one) : one);
    }
  }
  return query;
}

async function deriveAuthorization(step: RerunStep, ctx: DeriveContext): Promise<string | undefined> {
  const recorded = firstHeader(step.interaction.request.headers, "authorization");
  if (recorded === undefined) return undefined;
  const match = /^(\S+)\s+(.+)$/.exec(recorded);
  const credential = match?.[2] ?? recorded;
  if (ctx.values.knows(credential)) return `${match?.[1] ?? "Bearer"} ${substitute(ctx.values, credential)}`;
  if (step.interaction.response.status === 401) return recorded;
  const role: Role = step.match?.route.auth === "organization_admin" ? "admin" : "reader";
  if (!ctx.tokens.has(role)) {
    throw new Underivable(
      "the recording used a token obtained before it began, on a route needing organization_admin: give --admin-client-id and --admin-client-secret",
    );
  }
  return ctx.tokens.authorization(role);
}

function tokenBody(step: RerunStep, ctx: DeriveContext): string {
  const role = tokenRole(step, ctx.steps, ctx.options);
  const client = role === "admin" ? ctx.options.admin : ctx.options.reader;
  if (!client) {
    throw new Underivable(
      "the recorded client's token was used with organization_admin: give --admin-client-id and --admin-client-secret",
    );
  }
  const form = tokenForm(step);
  if (form.get("grant_type") === "client_credentials") return clientCredentialsBody(client);
  const body = new URLSearchParams();
  for (const [name, value] of form) {
    if (name === "client_id") body.append(name, client.clientId);
    else if (name === "client_secret") body.append(name, client.clientSecret);
    else body.append(name, substitute(ctx.values, value));
  }
  return body.toString();
}

function deriveJson(value: unknown, values: LearntValues, key = ""): unknown {
  if (Array.isArray(value)) return value.map((item) => deriveJson(item, values, key));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, deriveJson(v, values, k)]),
    );
  }
  if ((typeof value === "string" || typeof value === "number") && values.knows(String(value))) {
    if (isIdKey(key) || String(value).startsWith("<secret:")) {
      const replaced = substitute(values, String(value));
      return typeof value === "number" && /^-?\d+$/.test(replaced) ? Number(replaced) : replaced;
    }
  }
  return value;
}

function deriveBody(step: RerunStep, ctx: DeriveContext): HttpRequest["body"] {
  const { body, headers } = step.interaction.request;
  if (body === undefined) return undefined;
  const contentType = firstHeader(headers, "content-type") ?? "application/octet-stream";
  if (step.match?.route.id === "token") return { contentType, text: tokenBody(step, ctx) };
  if ("json" in body) return { contentType, text: JSON.stringify(deriveJson(body.json, ctx.values)) };
  if ("text" in body) return { contentType, text: body.text };
  throw new Underivable("binary request bodies are not re-sent");
}

/**
 * The recorded request as it must reach the target: ids and tokens the target issued in place of the
 * recorded ones, the target's own continuation token, a token request with the given client. Headers
 * other than `accept`, `accept-language`, `content-type` and `authorization` are not sent.
 */
export async function deriveRequest(step: RerunStep, ctx: DeriveContext): Promise<Derived> {
  const { request } = step.interaction;
  const method = request.method.toUpperCase() as HttpMethod;
  if (!METHODS.includes(method)) return { ok: false, reason: `method ${request.method} is not re-sent` };
  try {
    const path = derivePath(step, ctx.values);
    const query = deriveQuery(step, ctx);
    const authorization = await deriveAuthorization(step, ctx);
    const body = deriveBody(step, ctx);
    const headers: Record<string, string> = {};
    for (const name of KEPT_HEADERS) {
      const value = firstHeader(request.headers, name);
      if (value !== undefined) headers[name] = value;
    }
    // Each name and value encoded exactly once.
    const search = [...query].map(([n, v]) => `${encodeURIComponent(n)}=${encodeURIComponent(v)}`).join("&");
    return {
      ok: true,
      sentQuery: query,
      request: {
        method,
        url: `${ctx.options.target}${path}${search === "" ? "" : `?${search}`}`,
        headers,
        ...(authorization === undefined ? {} : { authorization }),
        ...(body === undefined ? {} : { body }),
      },
    };
  } catch (error) {
    if (error instanceof Underivable) return { ok: false, reason: error.message };
    throw error;
  }
}
