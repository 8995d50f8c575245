/** A schema of an OpenAPI document (3.0 or 3.1) reduced to what drift compares. */
export interface SchemaNode {
  /** JSON types it allows, `null` excluded (`integer` stands for itself; empty: any). */
  types: ReadonlySet<string>;
  nullable: boolean;
  /** Allowed values, when it enumerates them. */
  enum: readonly string[] | undefined;
  properties: Readonly<Record<string, unknown>>;
  required: ReadonlySet<string>;
  /** The schema of an array's items. */
  items: unknown;
}

type Raw = Record<string, unknown>;

const isObject = (value: unknown): value is Raw =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** Follows a local `$ref` (`#/components/schemas/X`) inside `root`; `undefined` when it leads nowhere. */
export function follow(root: unknown, ref: string): unknown {
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = root;
  for (const part of ref.slice(2).split("/")) {
    const key = decodeURIComponent(part).replace(/~1/g, "/").replace(/~0/g, "~");
    node = isObject(node) ? node[key] : undefined;
  }
  return node;
}

const EMPTY: SchemaNode = {
  types: new Set(),
  nullable: false,
  enum: undefined,
  properties: {},
  required: new Set(),
  items: undefined,
};

function merge(a: SchemaNode, b: SchemaNode): SchemaNode {
  return {
    types: a.types.size === 0 ? b.types : b.types.size === 0 ? a.types : a.types,
    nullable: a.nullable || b.nullable,
    enum: a.enum ?? b.enum,
    properties: { ...a.properties, ...b.properties },
    required: new Set([...a.required, ...b.required]),
    items: a.items ?? b.items,
  };
}

const isNullOnly = (value: unknown) => isObject(value) && (value.type === "null" || value.const === null);

/**
 * Reduces one schema: `$ref`s followed inside `root` (siblings kept), `allOf` merged, `anyOf`/`oneOf`
 * with a `null` branch read as nullable, OpenAPI 3.0 `nullable: true` and 3.1 `type: [T, "null"]` alike.
 * `seen` guards against recursive models.
 */
export function reduceSchema(
  root: unknown,
  schema: unknown,
  seen: ReadonlySet<string> = new Set(),
): SchemaNode {
  if (!isObject(schema)) return EMPTY;
  let node: SchemaNode = EMPTY;
  const { $ref } = schema;
  if (typeof $ref === "string" && !seen.has($ref)) {
    node = reduceSchema(root, follow(root, $ref), new Set([...seen, $ref]));
  }
  for (const part of Array.isArray(schema.allOf) ? schema.allOf : []) {
    node = merge(node, reduceSchema(root, part, seen));
  }
  const choices = [schema.anyOf, schema.oneOf].find(Array.isArray) as unknown[] | undefined;
  if (choices) {
    const others = choices.filter((c) => !isNullOnly(c));
    const reduced = others.map((c) => reduceSchema(root, c, seen));
    const [single] = reduced;
    const union =
      reduced.length === 1 && single
        ? single
        : { ...EMPTY, types: new Set(reduced.flatMap((r) => [...r.types])) };
    node = merge(node, { ...union, nullable: union.nullable || others.length < choices.length });
  }
  const declared = Array.isArray(schema.type) ? (schema.type as unknown[]) : [schema.type];
  const types = declared.filter((t): t is string => typeof t === "string" && t !== "null");
  const values = Array.isArray(schema.enum)
    ? schema.enum
    : "const" in schema && schema.const !== null
      ? [schema.const]
      : undefined;
  const own: SchemaNode = {
    types: new Set(types),
    nullable: schema.nullable === true || declared.includes("null") || (values?.includes(null) ?? false),
    enum: values?.filter((v) => v !== null).map(String),
    properties: isObject(schema.properties) ? schema.properties : {},
    required: new Set(Array.isArray(schema.required) ? schema.required.map(String) : []),
    items: schema.items,
  };
  return merge(own, node);
}
