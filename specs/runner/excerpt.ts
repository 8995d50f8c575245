import type { HttpExchange } from "./http.js";
import type { Evidence } from "./types.js";

const LIMIT = 600;

/** A value as compact JSON, cut to a readable length. */
export function excerptOf(value: unknown, limit = LIMIT): string {
  let text: string;
  try {
    text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}

/** Evidence of an exchange: its status and `part` of the response when given, else the body's beginning. */
export function evidenceOf(
  exchange: HttpExchange,
  part?: unknown,
  diagnostics?: readonly string[],
): Evidence {
  const excerpt = excerptOf(part === undefined ? exchange.text : part);
  const evidence: Evidence = { request: exchange.request, response: { status: exchange.status, excerpt } };
  return diagnostics && diagnostics.length > 0 ? { ...evidence, diagnostics } : evidence;
}
