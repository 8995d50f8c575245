import type { SchemaRegistry } from "../types.js";

/** A JSON Schema node and the schema file it belongs to (for resolving relative `$ref`s). */
interface Located {
  node: Record<string, unknown>;
  file: string;
}

const FILE = /^([a-z-]+)\.schema\.json$/;

/** Follows `$ref`s (`payer.schema.json`, `common.schema.json#/$defs/x`, `#/$defs/y`) through the registry. */
function resolve(schemas: SchemaRegistry, located: Located): Located {
  let current = located;
  for (let depth = 0; depth < 20; depth++) {
    const ref = current.node.$ref;
    if (typeof ref !== "string") return current;
    const [target = "", pointer = ""] = ref.split("#");
    const file =
      target === "" ? current.file : (FILE.exec(target.split("/").pop() ?? "")?.[1] ?? current.file);
    let node = schemas.schema(file) as Record<string, unknown>;
    for (const part of pointer.split("/").filter(Boolean))
      node = (node[part] ?? {}) as Record<string, unknown>;
    current = { node, file };
  }
  return current;
}

/** The node's own keywords merged with its `allOf` parts and its first `anyOf` branch, refs resolved. */
function flatten(schemas: SchemaRegistry, located: Located): Located {
  const base = resolve(schemas, located);
  const merged: Record<string, unknown> = { ...base.node };
  const parts = [
    ...((base.node.allOf as Record<string, unknown>[] | undefined) ?? []),
    ...((base.node.anyOf as Record<string, unknown>[] | undefined) ?? []).slice(0, 1),
  ];
  for (const part of parts) {
    const flat = flatten(schemas, { node: part, file: base.file }).node;
    const own = (merged.properties ?? {}) as Record<string, unknown>;
    const inherited = (flat.properties ?? {}) as Record<string, unknown>;
    const properties: Record<string, unknown> = { ...inherited, ...own };
    for (const key of Object.keys(own)) {
      if (inherited[key] !== undefined) properties[key] = { allOf: [inherited[key], own[key]] };
    }
    merged.properties = properties;
    merged.required = [
      ...new Set([...((flat.required as string[]) ?? []), ...((merged.required as string[]) ?? [])]),
    ];
    for (const key of ["type", "items", "pattern", "const"])
      if (merged[key] === undefined && flat[key] !== undefined) merged[key] = flat[key];
  }
  return { node: merged, file: base.file };
}

/** The first non-null type of a node. */
function primaryType(node: Record<string, unknown>): string | undefined {
  const type = node.type;
  if (Array.isArray(type)) return type.find((t) => t !== "null") as string | undefined;
  if (typeof type === "string") return type;
  if (node.properties || node.required) return "object";
  if (node.items) return "array";
  return undefined;
}

/** Candidate strings tried against a schema's `pattern`, the first that matches is the example. */
const PATTERN_CANDIDATES = [
  "2025-01-15T10:30:00.1234567+01:00",
  "https://example.org/assopay/resource",
  "FRA",
  "bearer",
];

/**
 * Example values of the fields the provider's OpenAPI document (contracts/reference/openapi-v5.json)
 * types as enums where our schemas keep the string open, by `schema.property`: a stub then serves values
 * a client can meet. Enums: ItemState, TierType, PaymentState, FormType.
 */
const ENUM_EXAMPLES: Readonly<Record<string, string>> = {
  "item.state": "Processed",
  "item.type": "Registration",
  "payment.state": "Authorized",
  "payment.formType": "Event",
  "public-form.formType": "Event",
  "order.formType": "Event",
};

export type Matcher = { match: string; [key: string]: unknown };

/** An example body with the Pact matching rules derived from the schema, keyed by JSON path. */
export interface Example {
  value: unknown;
  rules: Record<string, Matcher[]>;
}

function propertyPath(path: string, key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `${path}.${key}` : `${path}['${key}']`;
}

/**
 * A minimal valid example of a schema (its required properties only) and type-based matchers for every
 * value in it: integers match `integer`, patterned strings `regex`, other leaves `type`, arrays `type`
 * with a minimum of one element.
 */
export function exampleOf(schemas: SchemaRegistry, name: string): Example {
  const rules: Record<string, Matcher[]> = {};
  const walk = (located: Located, path: string): unknown => {
    const { node, file } = flatten(schemas, located);
    if (node.const !== undefined) return node.const;
    const type = primaryType(node);
    switch (type) {
      case "object": {
        const properties = (node.properties ?? {}) as Record<string, Record<string, unknown>>;
        const out: Record<string, unknown> = {};
        for (const key of (node.required as string[] | undefined) ?? []) {
          const child = propertyPath(path, key);
          const known = ENUM_EXAMPLES[`${file}.${key}`];
          if (
            known !== undefined &&
            primaryType(flatten(schemas, { node: properties[key] ?? {}, file }).node) === "string"
          ) {
            rules[child] = [{ match: "type" }];
            out[key] = known;
          } else out[key] = walk({ node: properties[key] ?? {}, file }, child);
        }
        return out;
      }
      case "array": {
        rules[path] = [{ match: "type", min: 1 }];
        const items = (node.items ?? {}) as Record<string, unknown>;
        return [walk({ node: items, file }, `${path}[*]`)];
      }
      case "integer":
        rules[path] = [{ match: "integer" }];
        return typeof node.minimum === "number" ? Math.max(node.minimum, 1) : 1;
      case "number":
        rules[path] = [{ match: "number" }];
        return 1.5;
      case "boolean":
        rules[path] = [{ match: "type" }];
        return true;
      case "string": {
        if (Array.isArray(node.enum)) return node.enum[0];
        if (typeof node.pattern === "string") {
          const regex = new RegExp(node.pattern);
          rules[path] = [{ match: "regex", regex: node.pattern }];
          return PATTERN_CANDIDATES.find((c) => regex.test(c)) ?? "example";
        }
        rules[path] = [{ match: "type" }];
        return "example";
      }
      default:
        return {};
    }
  };
  const value = walk({ node: schemas.schema(name) as Record<string, unknown>, file: name }, "$");
  return { value, rules };
}
