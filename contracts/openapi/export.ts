import type { IsoDay } from "../../core/dates.js";
import type { Contract } from "../types.js";
import { BEARER_SCHEME, deprecatedCountsPagination, operation } from "./operations.js";
import { componentName, type JsonSchema, schemaComponents } from "./schemas.js";
import { webhooks } from "./webhooks.js";

/** The marker an exported document carries in `info`; the verb overwrites only files that have it. */
export const GENERATED_BY = "assopay openapi";

/** What to export. */
export interface OpenApiExportOptions {
  /**
   * The date the timeline is read at: which operations are switched off, whether `withCount` is
   * deprecated, which entries are in force.
   * @example { at: "2025-06-15" as IsoDay }
   */
  at: IsoDay;
}

/**
 * Exports the contract as an OpenAPI 3.1 document: every route of the catalogue as an operation (its
 * parameters, body, responses, rights and pagination), every schema file as components (draft 2020-12),
 * the timeline as `deprecated` plus `x-assopay-*` extensions, and the notification types as `webhooks`
 * with the signature header. The same contract and date give the same document, byte for byte.
 *
 * @example
 * const document = exportOpenApi(loadContract(), { at: "2025-06-15" as IsoDay });
 * document.paths["/v5/partners/me"]; // { get: { operationId: "v5.partner-info", … } }
 */
export function exportOpenApi(
  contract: Contract,
  options: OpenApiExportOptions,
): JsonSchema & {
  paths: Record<string, Record<string, JsonSchema>>;
} {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of contract.routes.all) {
    const item = paths[route.path] ?? {};
    item[route.method.toLowerCase()] = operation(contract.timeline, route, options.at);
    paths[route.path] = item;
  }
  const schemas = schemaComponents(contract.schemas);
  schemas[componentName("pagination", "deprecated-counts")] = deprecatedCountsPagination(
    contract.timeline,
    options.at,
  );
  return {
    openapi: "3.1.0",
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    info: {
      title: "Association payment API v5 (assopay contract)",
      version: "5",
      description:
        "The contract that assopay verifies, exported from its contracts/ folder. Timeline: x-assopay-timeline " +
        "(dates marked approximate are estimates). Counts: x-assopay-count-mode at x-assopay-at.",
      "x-generated-by": GENERATED_BY,
      "x-assopay-at": options.at,
    },
    tags: [
      { name: "v5", description: "The current API" },
      { name: "v3", description: "The previous API, switched off on the timeline's v3-switch-off date" },
      { name: "root", description: "Routes at the domain root (the token endpoint)" },
    ],
    paths,
    webhooks: webhooks(contract.notificationTypes),
    components: {
      schemas,
      securitySchemes: {
        [BEARER_SCHEME]: {
          type: "http",
          scheme: "bearer",
          description:
            "An access token from POST /oauth2/token (client_credentials). Some routes need the OrganizationAdmin role.",
        },
      },
    },
  };
}
