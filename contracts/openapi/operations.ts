import type { IsoDay } from "../../core/dates.js";
import type { AuthRequirement, QueryParam, QueryParamType, Route, Timeline } from "../types.js";
import { componentRef, type JsonSchema } from "./schemas.js";
import { announcedHeaders, countMarks, operationTimeline } from "./timeline.js";

/** The name of the security scheme every protected route uses. */
export const BEARER_SCHEME = "bearer";
/** The role the OpenAPI document of the provider calls `OrganizationAdmin`. */
export const ADMIN_ROLE = "OrganizationAdmin";

const STATUS_TEXT: Readonly<Record<number, string>> = {
  200: "Success",
  400: "Bad request: a parameter or the body breaks a rule",
  401: "No valid access token",
  403: "The token lacks the right this route needs",
  404: "Not found (or, on v3 after its switch-off, the API is gone)",
};

/** The schema of a query parameter's type (copied before a parameter adds its bounds). */
const QUERY_TYPES: Readonly<Record<QueryParamType, JsonSchema>> = {
  string: { type: "string" },
  integer: { type: "integer" },
  boolean: { type: "boolean" },
  "date-time": { type: "string", format: "date-time" },
  "string[]": { type: "array", items: { type: "string" } },
};

function queryParameter(timeline: Timeline, route: Route, param: QueryParam, at: IsoDay): JsonSchema {
  const schema: JsonSchema = structuredClone(QUERY_TYPES[param.type]);
  if (param.max !== undefined) schema.maximum = param.max;
  if (param.default !== undefined) schema.default = param.default;
  const out: JsonSchema = { name: param.name, in: "query", required: param.required, schema };
  if (param.type === "string[]") out.explode = true;
  if (param.name === "withCount" && route.countDeprecation) {
    const marks = countMarks(timeline, at);
    out.description =
      "Whether the page carries real totalCount and totalPages. Part of the count deprecation: see x-assopay-timeline.";
    out.deprecated = marks.find((m) => m.effect === "count-fields-removed")?.inForce ?? false;
    out["x-assopay-timeline"] = marks;
  }
  return out;
}

function pageSchema(route: Route): JsonSchema {
  const pagination = route.pagination;
  if (!pagination) return {};
  return {
    type: "object",
    required: [pagination.resultArray, "pagination"],
    properties: {
      [pagination.resultArray]: { type: "array", items: componentRef(pagination.entrySchema) },
      pagination: route.countDeprecation
        ? componentRef("pagination", "deprecated-counts")
        : componentRef("pagination"),
    },
  };
}

function successContent(route: Route): JsonSchema {
  const { contentType, schema } = route.response;
  if (route.pagination) return { [contentType]: { schema: pageSchema(route) } };
  // No schema: a JSON answer the contract leaves open (cancel, the DELETEs answer `{}`) is any JSON
  // value; anything else (an attached file) is its bytes.
  if (schema === undefined && contentType.includes("json")) return { [contentType]: { schema: {} } };
  if (schema === undefined)
    return { [contentType]: { schema: { type: "string", contentMediaType: contentType } } };
  return { [contentType]: { schema: componentRef(schema) } };
}

/** The security requirement of each right a route may need. */
const SECURITY: Readonly<Record<AuthRequirement, readonly JsonSchema[]>> = {
  none: [],
  bearer: [{ [BEARER_SCHEME]: [] }],
  organization_admin: [{ [BEARER_SCHEME]: [ADMIN_ROLE] }],
};

/** One route as an OpenAPI operation: parameters, body, responses, rights, pagination and its timeline. */
export function operation(timeline: Timeline, route: Route, at: IsoDay): JsonSchema {
  const parameters = [
    ...route.pathParams.map((name) => ({ name, in: "path", required: true, schema: { type: "string" } })),
    ...route.query.map((param) => queryParameter(timeline, route, param, at)),
  ];
  const headers = announcedHeaders(timeline, route, at);
  const announced = Object.keys(headers).length > 0 ? { headers } : {};
  const responses: JsonSchema = {
    [String(route.response.status)]: {
      description: STATUS_TEXT[route.response.status] ?? "Success",
      ...announced,
      content: successContent(route),
    },
  };
  for (const status of route.errors) {
    responses[String(status)] = {
      description: STATUS_TEXT[status] ?? `Error ${status}`,
      ...announced,
      content: { "application/json": { schema: componentRef("error") } },
    };
  }
  return {
    operationId: route.id,
    summary: route.summary,
    tags: [route.version],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(route.requestBody
      ? {
          requestBody: {
            required: true,
            content: { [route.requestBody.contentType]: { schema: componentRef(route.requestBody.schema) } },
          },
        }
      : {}),
    responses,
    security: structuredClone(SECURITY[route.auth]),
    "x-assopay-rights": route.auth,
    "x-assopay-seed": route.seed,
    ...(route.pagination
      ? {
          "x-assopay-pagination": {
            resultArray: route.pagination.resultArray,
            entrySchema: route.pagination.entrySchema,
            defaultPageSize: route.pagination.defaultPageSize,
            maxPageSize: route.pagination.maxPageSize,
            end: "a page whose result array is empty; follow pagination.continuationToken until then",
          },
        }
      : {}),
    ...operationTimeline(timeline, route, at),
  };
}

/** The pagination object of a count-deprecation route: the count fields carry their timeline. */
export function deprecatedCountsPagination(timeline: Timeline, at: IsoDay): JsonSchema {
  const field = (text: string) => ({
    deprecated: true,
    description: `${text} Deprecated: see x-assopay-timeline for when it holds -1 and when it leaves the response.`,
    "x-assopay-timeline": countMarks(timeline, at),
  });
  return {
    allOf: [componentRef("pagination")],
    properties: {
      totalCount: field("Total number of entries, or -1 when counts are not asked for."),
      totalPages: field("Total number of pages, or -1 when counts are not asked for."),
    },
  };
}
