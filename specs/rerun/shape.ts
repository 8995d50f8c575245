/**
 * The structure of two JSON bodies compared: fields added, removed or retyped. Values are ignored
 * (dates, ids and tokens change from one provider to another), and so are list lengths: the elements of
 * a list are merged into one shape. `null` matches any type (an optional value left empty).
 */

type Kind = "object" | "array" | "string" | "number" | "boolean" | "null";

interface Shape {
  kinds: Set<Kind>;
  fields: Map<string, Shape>;
  items: Shape | undefined;
}

const blank = (): Shape => ({ kinds: new Set(), fields: new Map(), items: undefined });

function kindOf(value: unknown): Kind {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  const type = typeof value;
  return type === "object" || type === "string" || type === "number" || type === "boolean" ? type : "null";
}

function shapeOf(value: unknown, into: Shape = blank()): Shape {
  const kind = kindOf(value);
  into.kinds.add(kind);
  if (kind === "array") {
    for (const item of value as unknown[]) into.items = shapeOf(item, into.items ?? blank());
  } else if (kind === "object") {
    for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
      into.fields.set(key, shapeOf(child, into.fields.get(key) ?? blank()));
    }
  }
  return into;
}

const kinds = (shape: Shape) => [...shape.kinds].filter((k) => k !== "null").sort();

function compare(recorded: Shape, target: Shape, path: string, out: string[]): void {
  const a = kinds(recorded);
  const b = kinds(target);
  if (a.length > 0 && b.length > 0 && a.join("|") !== b.join("|")) {
    out.push(`retyped ${path || "(body)"}: recorded ${a.join(" or ")}, now ${b.join(" or ")}`);
    return;
  }
  if (recorded.items && target.items) compare(recorded.items, target.items, `${path}[]`, out);
  for (const [key, child] of recorded.fields) {
    const there = target.fields.get(key);
    const at = path === "" ? key : `${path}.${key}`;
    if (!there) {
      if (target.kinds.has("object")) out.push(`removed ${at}`);
    } else compare(child, there, at, out);
  }
  for (const [key, child] of target.fields) {
    if (!recorded.fields.has(key) && recorded.kinds.has("object")) {
      out.push(`added ${path === "" ? key : `${path}.${key}`} (${kinds(child).join(" or ") || "null"})`);
    }
  }
}

/**
 * The differences of structure, one sentence each (`removed data[].payer.email`), leaving out the paths
 * given in `explained` (a dated change accounts for them).
 */
export function compareShapes(
  recorded: unknown,
  target: unknown,
  explained: readonly string[] = [],
): string[] {
  const out: string[] = [];
  compare(shapeOf(recorded), shapeOf(target), "", out);
  return out.filter((line) => !explained.some((path) => line.split(" ")[1] === path));
}
