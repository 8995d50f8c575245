import type { EvidenceDifference } from "../../core/finding.js";
import type { FieldFacts, OperationFacts, Surface } from "./surface.js";

/** What differs between what clients are promised (`before`) and what a document says (`after`). */
export type DriftKind =
  | "operation-removed"
  | "operation-added"
  | "parameter-removed"
  | "parameter-added"
  | "parameter-now-required"
  | "field-removed"
  | "field-added"
  | "field-now-optional"
  | "field-now-nullable"
  | "type-changed"
  | "enum-added"
  | "enum-widened"
  | "enum-narrowed"
  | "enum-removed";

/** One difference, before it is classified: where (the finding's evidence), what kind, what each side says. */
export type Difference = Omit<EvidenceDifference, "explainedBy"> & {
  readonly kind: DriftKind;
  /** One sentence: what `before` said and what `after` says (the finding's reason). */
  readonly detail: string;
};

/** The field holding a field (`data[].payer` for `data[].payer.email`, `data` for `data[].id`). */
const parentOf = (path: string) =>
  path.includes(".") ? path.slice(0, path.lastIndexOf(".")).replace(/(\[\])+$/, "") : "";

const list = (values: readonly string[] | undefined) => (values ? values.join("|") : "any");

/** The differences of one field, each handed to `push` with what each side says. */
function compareField(
  was: FieldFacts,
  now: FieldFacts,
  push: (kind: DriftKind, detail: string) => void,
): void {
  if (was.required && !was.nullable && !now.required)
    push("field-now-optional", "required before, optional now");
  if (!was.nullable && now.nullable) push("field-now-nullable", "never null before, nullable now");
  const widens = (t: string) => !was.types.includes(t) && !(t === "integer" && was.types.includes("number"));
  if (was.types.length > 0 && (now.types.length === 0 || now.types.some(widens))) {
    push("type-changed", `type ${list(was.types)} before, ${list(now.types)} now`);
  }
  if (was.enum === undefined && now.enum !== undefined) push("enum-added", `now one of ${list(now.enum)}`);
  if (was.enum !== undefined && now.enum === undefined) push("enum-removed", `was one of ${list(was.enum)}`);
  if (was.enum !== undefined && now.enum !== undefined) {
    const extra = now.enum.filter((v) => !was.enum?.includes(v));
    const gone = was.enum.filter((v) => !now.enum?.includes(v));
    if (extra.length > 0) push("enum-widened", `new values ${extra.join("|")}`);
    if (gone.length > 0) push("enum-narrowed", `values left out ${gone.join("|")}`);
  }
}

function compareOperation(was: OperationFacts, now: OperationFacts, out: Difference[]): void {
  const op = `${was.method} ${was.path}`;
  const push = (kind: DriftKind, subject: string, detail: string) =>
    out.push({ kind, operation: op, subject, detail });
  for (const [name, param] of was.params) {
    const found = now.params.get(name);
    if (!found) push("parameter-removed", name, "query parameter no longer declared");
    else if (found.required && !param.required)
      push("parameter-now-required", name, "optional before, required now");
  }
  for (const [name, param] of now.params) {
    if (was.params.has(name)) continue;
    if (param.required) push("parameter-now-required", name, "a new required query parameter");
    else push("parameter-added", name, "a new optional query parameter");
  }
  if (was.fields.size === 0 || now.fields.size === 0) return;
  for (const [path, field] of was.fields) {
    const found = now.fields.get(path);
    const parent = parentOf(path);
    if (found) compareField(field, found, (kind, detail) => push(kind, path, detail));
    else if (field.required && (parent === "" || now.fields.has(parent)))
      push("field-removed", path, "required before, not in the answer's schema now");
  }
  for (const path of now.fields.keys()) {
    const parent = parentOf(path);
    if (!was.fields.has(path) && (parent === "" || was.fields.has(parent)))
      push("field-added", path, "a field the answer now declares");
  }
}

/**
 * Every difference between two surfaces, `before` being what clients rely on (the contract, or the
 * older document) and `after` the document judged.
 */
export function compareSurfaces(before: Surface, after: Surface): Difference[] {
  const out: Difference[] = [];
  const whole = (kind: DriftKind, op: OperationFacts, detail: string) =>
    out.push({ kind, operation: `${op.method} ${op.path}`, subject: "", detail });
  for (const [key, was] of before) {
    const now = after.get(key);
    if (now) compareOperation(was, now, out);
    else whole("operation-removed", was, "not in the document");
  }
  for (const [key, now] of after) {
    if (!before.has(key)) whole("operation-added", now, "only in the document");
  }
  return out;
}
