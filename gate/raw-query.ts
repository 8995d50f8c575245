/**
 * The query string exactly as the client wrote it. Nothing here re-encodes: values are kept raw, and
 * decoded only once, the way the service (ASP.NET) reads them, when a judge compares them.
 */

/** One `name=value` pair of a raw query. */
export interface RawParam {
  /** Position among the pairs. */
  readonly index: number;
  readonly rawName: string;
  /** The value as written (`undefined` for a bare `name`). */
  readonly rawValue: string | undefined;
  /** The name and value decoded once. */
  readonly name: string;
  readonly value: string;
}

/**
 * One level of `application/x-www-form-urlencoded` decoding, as the service applies to query values:
 * `+` is a space, `%XX` a byte (a run of them read as UTF-8); a `%` not followed by two hex digits stays
 * as it is (never an exception).
 *
 * @example formDecode("a%2Bb+c%zz") // "a+b c%zz"
 */
export function formDecode(raw: string): string {
  return raw
    .replaceAll("+", " ")
    .replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => Buffer.from(run.replaceAll("%", ""), "hex").toString("utf8"));
}

/** The query part of a raw request target (`/path?query`), without the `?`; empty when there is none. */
export function rawQueryOf(rawUrl: string): string {
  const mark = rawUrl.indexOf("?");
  return mark === -1 ? "" : rawUrl.slice(mark + 1);
}

/** The path part of a raw request target, still percent-encoded. */
export function rawPathOf(rawUrl: string): string {
  const mark = rawUrl.indexOf("?");
  return mark === -1 ? rawUrl : rawUrl.slice(0, mark);
}

/** Splits a raw query on `&` into pairs, keeping every raw byte. */
export function splitRawQuery(query: string): readonly RawParam[] {
  if (query === "") return [];
  return query.split("&").map((pair, index) => {
    const eq = pair.indexOf("=");
    const rawName = eq === -1 ? pair : pair.slice(0, eq);
    const rawValue = eq === -1 ? undefined : pair.slice(eq + 1);
    return { index, rawName, rawValue, name: formDecode(rawName), value: formDecode(rawValue ?? "") };
  });
}

/** The first pair whose decoded name matches, case-insensitively (as the service matches names). */
export function findParam(params: readonly RawParam[], name: string): RawParam | undefined {
  const wanted = name.toLowerCase();
  return params.find((p) => p.name.toLowerCase() === wanted);
}

/**
 * The raw query with one pair's value replaced (percent-encoded with `encodeURIComponent`) or, when
 * `value` is `undefined`, the pair removed. Every other pair keeps its raw bytes.
 */
export function replaceParam(query: string, param: RawParam, value: string | undefined): string {
  const pairs = query.split("&");
  if (value === undefined) pairs.splice(param.index, 1);
  else pairs[param.index] = `${param.rawName}=${encodeURIComponent(value)}`;
  return pairs.join("&");
}
