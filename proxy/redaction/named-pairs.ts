/**
 * Objects that carry a name and its value side by side: HAR files list headers, cookies and query pairs
 * so, Kubernetes and CI files their variables, Postman and AWS their keys and tags
 * (`{"name": "DB_PASSWORD", "value": "…"}`, `{"Key": "api_key", "Value": "…"}`), and the service's
 * custom fields their answers (`{"name": "Access token", "answer": "…"}`). The value is what a
 * field of that name holds, and is redacted as such a field would be: a placeholder under a secret name,
 * a fake under a personal one with `--redact-pii`.
 */
/** Whether a field of that name is redacted (the redactor's `isSensitiveField`). */
export type Sensitive = (name: string) => boolean;

/**
 * The keys that name a pair's value, and those that hold it (in the cases people write them): `answer`
 * is the service's own, a custom field's (`{"name": "Access token", "type": "TextInput", "answer": …}`).
 */
const NAMING = ["name", "key"] as const;
const NAME_KEYS = NAMING.flatMap((key) => [key, key[0]?.toUpperCase() + key.slice(1), key.toUpperCase()]);
const VALUE_KEYS = ["value", "Value", "VALUE", "answer"] as const;

/** Whether a key names the value beside it (`name`, `key`, whatever its case). */
export function namesItsValue(key: string): boolean {
  return (NAMING as readonly string[]).includes(key.toLowerCase());
}

/** A pair object's sensitive name and the key holding its value; undefined for any other object. */
export interface NamedPair {
  readonly name: string;
  readonly valueKey: string;
}

/**
 * The name an object gives the value beside it, when that name is sensitive (a field so named would be
 * redacted), and the key of that value.
 *
 * @example namedPair({ name: "DB_PASSWORD", value: "hunter2" }, sensitive) // { name: "DB_PASSWORD", valueKey: "value" }
 */
export function namedPair(map: Record<string, unknown>, sensitive: Sensitive): NamedPair | undefined {
  const nameKey = NAME_KEYS.find((key) => typeof map[key] === "string");
  if (nameKey === undefined) return undefined;
  const valueKey = VALUE_KEYS.find((key) => key in map);
  const name = asFieldName(map[nameKey] as string);
  return valueKey !== undefined && sensitive(name) ? { name, valueKey } : undefined;
}

/** A name as a field would be named: a label's blanks as `_` ("API key" is named as `API_key`). */
export function asFieldName(label: string): string {
  return label.trim().replace(/\s+/g, "_");
}

/** A `"name": "…"` or `"key": "…"` member in JSON text: the name it gives (escapes as written). */
export const NAME_MEMBER = new RegExp(`"(?:${NAMING.join("|")})"\\s*:\\s*"((?:[^"\\\\\\n]|\\\\.)*)"`, "gi");

/** A `"value":` or `"answer":` member in JSON text. */
export const VALUE_MEMBER = /"(?:value|answer)"\s*:\s*/gi;

/** A key's name, its escapes decoded (`\u0061ccess_token` is `access_token`). */
export function keyName(raw: string): string {
  if (!raw.includes("\\")) return raw;
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}
