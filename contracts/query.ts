/**
 * Query parameters as the service reads them: names match case-insensitively (ASP.NET), booleans accept
 * `true`/`True`/`TRUE`.
 */

/** Every value of a repeated query parameter (`states=A&states=B`), whatever the case of its name. */
export function queryValues(params: URLSearchParams, name: string): string[] {
  const wanted = name.toLowerCase();
  const values: string[] = [];
  for (const [key, value] of params) if (key.toLowerCase() === wanted) values.push(value);
  return values;
}

/** The first value of a query parameter, whatever the case of its name. */
export function queryValue(params: URLSearchParams, name: string): string | undefined {
  return queryValues(params, name)[0];
}

/** `true` or `false` for a boolean parameter, `undefined` when absent, `null` when present but not a boolean. */
export function queryBoolean(params: URLSearchParams, name: string): boolean | undefined | null {
  const raw = queryValue(params, name);
  if (raw === undefined) return undefined;
  const lowered = raw.toLowerCase();
  if (lowered === "true") return true;
  if (lowered === "false") return false;
  return null;
}
