import { documentOperations, operationKey } from "../document-coverage.js";
import { follow, reduceSchema } from "./schema-node.js";

/** One response field as drift compares it, at a dotted path (`data[].payer.email`). */
export interface FieldFacts {
  types: readonly string[];
  /** Required in its parent object. */
  required: boolean;
  nullable: boolean;
  enum: readonly string[] | undefined;
}

/** One query parameter. */
export interface ParamFacts {
  required: boolean;
  enum: readonly string[] | undefined;
}

/** One operation of a document, reduced. */
export interface OperationFacts {
  method: string;
  /** The path under the host root (`/v5/payments/{paymentId}`). */
  path: string;
  params: ReadonlyMap<string, ParamFacts>;
  /** The fields of its success answer; empty when the document gives that answer no JSON schema. */
  fields: ReadonlyMap<string, FieldFacts>;
}

/** What a document promises, keyed by `METHOD /path` with parameter names and case left out. */
export type Surface = ReadonlyMap<string, OperationFacts>;

type Raw = Record<string, unknown>;
const DEPTH = 6;

/** The path part of the first server URL (`https://api.example.com/v5` → `/v5`), or empty. */
export function serverPrefix(document: unknown): string {
  const servers = (document as { servers?: { url?: unknown }[] }).servers;
  const url = servers?.[0]?.url;
  if (typeof url !== "string") return "";
  const path = /^[a-z]+:\/\/[^/]+(\/.*)?$/i.exec(url)?.[1] ?? (url.startsWith("/") ? url : "");
  return path.replace(/\/$/, "");
}

function collectFields(
  root: unknown,
  schema: unknown,
  prefix: string,
  out: Map<string, FieldFacts>,
  depth: number,
): void {
  if (depth > DEPTH) return;
  const node = reduceSchema(root, schema);
  if (node.types.has("array") || (node.items !== undefined && node.types.size === 0)) {
    collectFields(root, node.items, `${prefix}[]`, out, depth + 1);
    return;
  }
  for (const [name, property] of Object.entries(node.properties)) {
    const field = reduceSchema(root, property);
    const path = prefix === "" ? name : `${prefix}.${name}`;
    out.set(path, {
      types: [...field.types].sort(),
      required: node.required.has(name),
      nullable: field.nullable,
      enum: field.enum ? [...field.enum].sort() : undefined,
    });
    collectFields(root, property, path, out, depth + 1);
  }
}

function successSchema(operation: Raw): unknown {
  const responses = (operation.responses ?? {}) as Record<
    string,
    { content?: Record<string, { schema?: unknown }> }
  >;
  const status = Object.keys(responses).find((s) => /^2\d\d$/.test(s));
  const content = status ? responses[status]?.content : undefined;
  return content?.["application/json"]?.schema ?? content?.["text/json"]?.schema;
}

function paramsOf(root: unknown, item: Raw, operation: Raw): Map<string, ParamFacts> {
  const list = [
    ...(Array.isArray(item.parameters) ? item.parameters : []),
    ...(Array.isArray(operation.parameters) ? operation.parameters : []),
  ] as unknown[];
  const out = new Map<string, ParamFacts>();
  for (const entry of list) {
    const ref = (entry as Raw | null)?.$ref;
    const param = (typeof ref === "string" ? follow(root, ref) : entry) as Raw | undefined;
    if (param?.in !== "query" || typeof param.name !== "string") continue;
    const schema = reduceSchema(root, param.schema);
    const items = schema.types.has("array") ? reduceSchema(root, schema.items) : undefined;
    out.set(param.name, { required: param.required === true, enum: (items ?? schema).enum });
  }
  return out;
}

/**
 * Reduces an OpenAPI 3.0 or 3.1 document to its operations (under its server's path, found with
 * `documentOperations`), their query parameters and the fields of their success answers.
 *
 * @example
 * surfaceOf(JSON.parse(text)).get("GET /v5/payments/{}")?.fields.get("state"); // { types: ["string"], … }
 */
export function surfaceOf(document: unknown): Surface {
  const prefix = serverPrefix(document);
  const paths = ((document as { paths?: unknown }).paths ?? {}) as Record<string, Raw>;
  const out = new Map<string, OperationFacts>();
  for (const { method, path } of documentOperations(document, prefix)) {
    const item = paths[path.slice(prefix.length)] ?? {};
    const operation = (item[method.toLowerCase()] ?? {}) as Raw;
    const fields = new Map<string, FieldFacts>();
    const schema = successSchema(operation);
    if (schema !== undefined) collectFields(document, schema, "", fields, 0);
    out.set(operationKey(method, path), {
      method,
      path,
      params: paramsOf(document, item, operation),
      fields,
    });
  }
  return out;
}
