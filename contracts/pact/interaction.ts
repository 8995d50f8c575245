import type { Example, Matcher } from "./examples.js";

/** Values standing in for path parameters in the pact files; the verifier replaces them from provider states. */
export const EXAMPLE_VALUES: Readonly<Record<string, string>> = {
  organizationSlug: "demo-association",
  formType: "Event",
  formSlug: "gala-2025",
  orderId: "1001",
  fileId: "f-1001-1",
  checkoutIntentId: "2001",
  paymentId: "3001",
  itemId: "1001",
};

/** The two kinds of access token an interaction may need: any client's, or an `organization_admin` one. */
export type Role = "reader" | "admin";

/**
 * The provider state that hands the verifier an access token (`accessToken`) of a role; the request's
 * Authorization header is generated from it (`fromProviderState`), so no tool has to swap placeholders.
 */
export const ACCESS_TOKEN_STATE = "an access token";

/** The Authorization header's example value: what a stub server shows and a mock server expects. */
export const EXAMPLE_AUTHORIZATION = "Bearer example-access-token";

/** One query parameter whose value a provider state gives (`expression`), with its example for stubs. */
export interface StateValue {
  /** The provider state value it comes from (`secondPageToken`). */
  from: string;
  /** The value written in the file, which a stub server matches. */
  example: string;
}

export interface ProviderStateRef {
  name: string;
  params?: Record<string, string | number | boolean>;
}

export type Rules = Record<string, { combine: "AND"; matchers: Matcher[] }>;

/** Wraps plain matcher lists into Pact's `{combine, matchers}` form. */
export function toRules(rules: Record<string, Matcher[]>): Rules {
  return Object.fromEntries(
    Object.entries(rules).map(([path, matchers]) => [path, { combine: "AND" as const, matchers }]),
  );
}

/** Moves matching rules of an example rooted at `$` under another path (`$.data[*]`). */
export function reroot(rules: Record<string, Matcher[]>, root: string): Record<string, Matcher[]> {
  return Object.fromEntries(Object.entries(rules).map(([path, m]) => [`${root}${path.slice(1)}`, m]));
}

export interface HttpSpec {
  description: string;
  states: ProviderStateRef[];
  method: string;
  /** Path template with `{name}` parameters, taken from provider state values at verification. */
  path: string;
  query?: Record<string, string>;
  /** Query parameters whose value comes from a provider state value, each with its own example. */
  queryFromState?: Record<string, StateValue>;
  role?: Role;
  requestBody?: { contentType: string; content: unknown };
  status: number;
  /** A status class instead of an exact status (`clientError` for any 4xx). */
  statusClass?: "clientError" | "success";
  responseBody?: Example;
}

/** A Pact V4 `Synchronous/HTTP` interaction. */
export function httpInteraction(spec: HttpSpec): Record<string, unknown> {
  const hasParams = /\{[A-Za-z]+\}/.test(spec.path);
  const examplePath = spec.path.replace(
    /\{([A-Za-z]+)\}/g,
    (_, name: string) => EXAMPLE_VALUES[name] ?? name,
  );
  const query: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(spec.query ?? {})) query[k] = [v];
  for (const [k, v] of Object.entries(spec.queryFromState ?? {})) query[k] = [v.example];
  const generators: Record<string, unknown> = {};
  if (hasParams) {
    generators.path = {
      type: "ProviderState",
      expression: spec.path.replace(/\{([A-Za-z]+)\}/g, "$${$1}"),
      dataType: "STRING",
    };
  }
  if (spec.queryFromState) {
    generators.query = Object.fromEntries(
      Object.entries(spec.queryFromState).map(([k, v]) => [
        k,
        { type: "ProviderState", expression: `\${${v.from}}`, dataType: "STRING" },
      ]),
    );
  }
  if (spec.role) {
    generators.header = {
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Pact expressions use ${…} literally
      Authorization: { type: "ProviderState", expression: "Bearer ${accessToken}", dataType: "STRING" },
    };
  }
  const headers: Record<string, string[]> = {};
  if (spec.role) headers.Authorization = [EXAMPLE_AUTHORIZATION];
  if (spec.requestBody) headers["Content-Type"] = [spec.requestBody.contentType];
  const request: Record<string, unknown> = { method: spec.method, path: examplePath };
  if (Object.keys(query).length > 0) request.query = query;
  if (Object.keys(headers).length > 0) request.headers = headers;
  if (spec.requestBody) {
    const content = spec.requestBody.content;
    // A text body (form-encoded) goes as base64 bytes: pact-core would otherwise re-serialise it as JSON.
    request.body =
      typeof content === "string"
        ? {
            content: Buffer.from(content).toString("base64"),
            contentType: spec.requestBody.contentType,
            encoded: "base64",
          }
        : { content, contentType: spec.requestBody.contentType, encoded: false };
  }
  if (Object.keys(generators).length > 0) request.generators = generators;
  // Any bearer token matches, so a stub server answers a client holding a real one.
  if (spec.role)
    request.matchingRules = {
      header: toRules({ Authorization: [{ match: "regex", regex: "^Bearer \\S+$" }] }),
    };
  const response: Record<string, unknown> = { status: spec.status };
  const responseRules: Record<string, unknown> = {};
  if (spec.statusClass)
    responseRules.status = { combine: "AND", matchers: [{ match: "statusCode", status: spec.statusClass }] };
  if (spec.responseBody) {
    response.headers = { "Content-Type": ["application/json"] };
    response.body = { content: spec.responseBody.value, contentType: "application/json", encoded: false };
    responseRules.body = toRules(spec.responseBody.rules);
    responseRules.header = toRules({ "Content-Type": [{ match: "regex", regex: "^application/json.*" }] });
  }
  if (Object.keys(responseRules).length > 0) response.matchingRules = responseRules;
  return {
    type: "Synchronous/HTTP",
    description: spec.description,
    pending: false,
    providerStates: [
      ...spec.states,
      ...(spec.role ? [{ name: ACCESS_TOKEN_STATE, params: { role: spec.role } }] : []),
    ].map((s) => ({ name: s.name, ...(s.params ? { params: s.params } : {}) })),
    request,
    response,
  };
}
