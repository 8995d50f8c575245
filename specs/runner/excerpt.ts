import type { HttpExchange } from "./http.js";
import type { Evidence, EvidenceResponse } from "./types.js";

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

/** The response part of the evidence: its status and the given part (default: the body's beginning). */
export function responseEvidence(exchange: HttpExchange, part?: unknown): EvidenceResponse {
  return {
    status: exchange.status,
    excerpt: part === undefined ? excerptOf(exchange.text) : excerptOf(part),
  };
}

/** Evidence of an exchange, pointing at `part` of the response when given. */
export function evidenceOf(
  exchange: HttpExchange,
  part?: unknown,
  diagnostics?: readonly string[],
): Evidence {
  const evidence: Evidence = { request: exchange.request, response: responseEvidence(exchange, part) };
  return diagnostics && diagnostics.length > 0 ? { ...evidence, diagnostics } : evidence;
}
