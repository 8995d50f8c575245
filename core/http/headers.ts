/**
 * Connection-specific header fields (RFC 9110 §7.6.1): they describe one hop, never the message, so a
 * proxy does not pass them on and a recording does not keep them. `proxy-connection`, `proxy-authenticate`
 * and `proxy-authorization` are included: they are meant for the proxy itself. Any field named in
 * `Connection` is connection-specific too (see {@link endToEndHeaders}).
 */
export const HOP_BY_HOP: ReadonlySet<string> = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

/** Header values as Node parses them (`set-cookie` a list), or as a caller assembles them. */
export type HeaderValues = Readonly<Record<string, string | readonly string[] | undefined>>;

const NO_NAMES: readonly string[] = [];

/** The field names listed in `Connection` values (`close`, `keep-alive`, `x-hop`), in lower case. */
function namedByConnection(value: string | readonly string[] | undefined): readonly string[] {
  if (value === undefined) return NO_NAMES;
  const names: string[] = [];
  for (const line of typeof value === "string" ? [value] : value)
    for (const token of line.split(",")) {
      const name = token.trim().toLowerCase();
      if (name !== "") names.push(name);
    }
  return names;
}

/**
 * The headers that are passed on from one hop to the next: without the {@link HOP_BY_HOP} fields, the
 * fields named in `Connection`, and `content-length` and `host` (whoever sends the message on sets those
 * for the bytes and the target it sends). Names are compared in lower case and kept as given; values are
 * copied.
 *
 * @example
 * endToEndHeaders({ connection: "keep-alive, x-trace", "x-trace": "1", accept: "application/json" });
 * // { accept: "application/json" }
 */
export function endToEndHeaders(headers: HeaderValues): Record<string, string | string[]> {
  const connection = namedByConnection(headers.connection ?? headers.Connection);
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || lower === "content-length" || lower === "host" || connection.includes(lower))
      continue;
    out[name] = typeof value === "string" ? value : [...value];
  }
  return out;
}
