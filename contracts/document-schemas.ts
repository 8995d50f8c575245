import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import type { Route } from "./types.js";

const DOCUMENT_ID = "https://assopay-contract.dev/reference/openapi-v5.json";

/**
 * Listings whose 200 the document leaves without a schema (it lists only content types): the component it
 * gives those pages elsewhere, found by the end of its name (component prefixes change between releases).
 */
const UNDECLARED_PAGES: Readonly<Record<string, string>> = {
  "list-entry": "ResultsWithPaginationModel_Item",
  order: "ResultsWithPaginationModel_Order",
  payment: "ResultsWithPaginationModel_Payment",
};

type OpenApi = {
  paths?: Record<
    string,
    Record<string, { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> }>
  >;
  components?: { schemas?: Record<string, unknown> };
};

/** OpenAPI 3.0's `nullable` beside a `$ref` or `allOf` (no `type`), as JSON Schema: `anyOf` with null. */
function nullableWithoutType(value: unknown): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  const { nullable, ...rest } = value as Record<string, unknown>;
  if (nullable !== true || "type" in rest) return value;
  return { anyOf: [rest, { type: "null" }] };
}

/** What the document says of one route's success answer. */
export type DocumentJudgement =
  | { kind: "not-in-document" }
  | { kind: "no-schema" }
  | { kind: "judged"; errors: ErrorObject[] };

const shape = (path: string) => path.toLowerCase().replace(/\{[^}]+\}/g, "{}");

/**
 * Judges bodies by the provider's published OpenAPI 3.0 document: the schema of the operation's success
 * response, `$ref`s resolved inside the document by AJV, `nullable` and enumerations honoured, formats
 * not checked unless `formats` (then RFC 3339's `date-time`: no fraction needed), unknown properties
 * allowed (the service sends more than its models name). `prefix` is the document server's path (`/v5`).
 *
 * @example
 * const judge = documentJudge(JSON.parse(text), "/v5");
 * judge(contract.routes.byId("v5.payment"), body); // { kind: "judged", errors: [] }
 */
export function documentJudge(
  document: unknown,
  prefix: string,
  { formats = false }: { formats?: boolean } = {},
): (route: Route, body: unknown) => DocumentJudgement {
  const doc = document as OpenApi;
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: formats });
  if (formats) (addFormatsModule as unknown as (ajv: Ajv) => Ajv)(ajv);
  // The document closes its models (`additionalProperties: false`), but the service's payloads carry
  // fields the models lack (SERVICE-FACTS, Notifications): read it as a tolerant reader does.
  const tolerant = JSON.parse(JSON.stringify(doc), (key, value: unknown) => {
    if (key === "additionalProperties" && value === false) return undefined;
    return nullableWithoutType(value);
  }) as object;
  ajv.addSchema({ ...tolerant, $id: DOCUMENT_ID } as never);
  const components = Object.keys(doc.components?.schemas ?? {});
  const byShape = new Map(Object.entries(doc.paths ?? {}).map(([p, item]) => [shape(`${prefix}${p}`), item]));
  const cache = new Map<string, ValidateFunction | undefined>();
  const ref = (name: string) => ({
    $ref: `${DOCUMENT_ID}#/components/schemas/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`,
  });

  const validatorOf = (route: Route): ValidateFunction | "not-in-document" | undefined => {
    const item = byShape.get(shape(route.path));
    const operation = item?.[route.method.toLowerCase()];
    if (!operation) return "not-in-document";
    if (cache.has(route.id)) return cache.get(route.id);
    const declared =
      operation.responses?.[String(route.response.status)]?.content?.["application/json"]?.schema;
    let schema: unknown = declared;
    if (schema === undefined && route.pagination) {
      const suffix = UNDECLARED_PAGES[route.pagination.entrySchema];
      const component = suffix ? components.find((c) => c.endsWith(`.${suffix}`)) : undefined;
      if (component) schema = ref(component);
    }
    const rewritten =
      schema === undefined
        ? undefined
        : JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, `"${DOCUMENT_ID}#/components/`));
    const validate = rewritten === undefined ? undefined : ajv.compile(rewritten as object);
    cache.set(route.id, validate);
    return validate;
  };

  return (route, body) => {
    const validate = validatorOf(route);
    if (validate === "not-in-document") return { kind: "not-in-document" };
    if (!validate) return { kind: "no-schema" };
    return { kind: "judged", errors: validate(body) ? [] : [...(validate.errors ?? [])] };
  };
}
