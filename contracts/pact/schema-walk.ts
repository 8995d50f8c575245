import type { SchemaRegistry } from "../types.js";

/** A JSON Schema node and the schema file it belongs to (for resolving relative `$ref`s). */
export interface Located {
  node: Record<string, unknown>;
  file: string;
}

const FILE = /^([a-z-]+)\.schema\.json$/;

/** Follows `$ref`s (`payer.schema.json`, `common.schema.json#/$defs/x`, `#/$defs/y`) through the registry. */
export function resolve(schemas: SchemaRegistry, located: Located): Located {
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
export function flatten(schemas: SchemaRegistry, located: Located): Located {
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
export function primaryType(node: Record<string, unknown>): string | undefined {
  const type = node.type;
  if (Array.isArray(type)) return type.find((t) => t !== "null") as string | undefined;
  if (typeof type === "string") return type;
  if (node.properties || node.required) return "object";
  if (node.items) return "array";
  return undefined;
}
