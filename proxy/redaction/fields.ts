import { piiKind } from "./pii.js";
import { isSecretField } from "./secrets.js";

/** What a field's value is, judged by the field's name. */
export type FieldKind = "secret" | "name" | "email" | "plain";

/** How many distinct field names a classifier remembers. */
const CACHE_LIMIT = 10_000;

/**
 * Classifies field names (JSON keys, form and query names), remembering its answers: a recorder meets
 * the same few hundred names again and again.
 */
export class FieldClassifier {
  private readonly cache = new Map<string, FieldKind>();

  kind(name: string): FieldKind {
    const known = this.cache.get(name);
    if (known !== undefined) return known;
    const kind: FieldKind = isSecretField(name) ? "secret" : (piiKind(name) ?? "plain");
    if (this.cache.size < CACHE_LIMIT) this.cache.set(name, kind);
    return kind;
  }
}
