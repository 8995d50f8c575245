import { AssopayError } from "../../core/errors.js";
import type { SchemaRegistry } from "../types.js";

/** A JSON Schema (2020-12) as the OpenAPI document holds it. */
export type JsonSchema = Record<string, unknown>;

const SUFFIX = ".schema.json";
const BASE = "https://assopay-contract.dev/schemas/";

/** The component name of a schema file, or of one of its `$defs` (`common.timestamp`). */
export function componentName(schema: string, def?: string): string {
  return def === undefined ? schema : `${schema}.${def}`;
}

/** A `$ref` to a component. */
export function componentRef(schema: string, def?: string): JsonSchema {
  return { $ref: `#/components/schemas/${componentName(schema, def)}` };
}

/**
 * Rewrites one `$ref` of the schema file `owner` into a reference to a component:
 * `payer.schema.json` → `#/components/schemas/payer`, `common.schema.json#/$defs/url` →
 * `#/components/schemas/common.url`, `#/$defs/tier` → `#/components/schemas/<owner>.tier`.
 */
function rewriteRef(owner: string, ref: string): string {
  const [target = "", fragment = ""] = ref.replace(BASE, "").split("#");
  const schema = target === "" ? owner : target.endsWith(SUFFIX) ? target.slice(0, -SUFFIX.length) : "";
  const def = /^\/\$defs\/([A-Za-z0-9_-]+)$/.exec(fragment)?.[1];
  if (schema === "" || (fragment !== "" && def === undefined)) {
    throw new AssopayError(
      "bad-contract",
      `schema "${owner}" has a $ref the OpenAPI export cannot place: ${ref}`,
      {
        hint: "refer to another schema file, or to one of its $defs (file.schema.json#/$defs/name)",
      },
    );
  }
  return `#/components/schemas/${componentName(schema, def)}`;
}

function rewrite(owner: string, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => rewrite(owner, v));
  if (value === null || typeof value !== "object") return value;
  const out: JsonSchema = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === "$ref" && typeof inner === "string") out.$ref = rewriteRef(owner, inner);
    else out[key] = rewrite(owner, inner);
  }
  return out;
}

/**
 * Turns every schema file of the contract into `components.schemas`: one component per file and one per
 * `$defs` entry (hoisted, named `file.def`), with `$id`, `$schema` and `$defs` dropped and each `$ref`
 * pointing at its component. The schemas stay draft 2020-12, which OpenAPI 3.1 uses as is.
 */
export function schemaComponents(schemas: SchemaRegistry): Record<string, JsonSchema> {
  const components: Record<string, JsonSchema> = {};
  for (const name of [...schemas.names()].sort()) {
    const { $id: _id, $schema: _schema, $defs, ...body } = schemas.schema(name) as JsonSchema;
    if (Object.keys(body).some((key) => key !== "title" && key !== "description")) {
      components[componentName(name)] = rewrite(name, body) as JsonSchema;
    }
    for (const [def, schema] of Object.entries(($defs ?? {}) as Record<string, unknown>)) {
      components[componentName(name, def)] = rewrite(name, schema) as JsonSchema;
    }
  }
  return components;
}
