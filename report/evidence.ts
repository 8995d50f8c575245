import type { Evidence, Finding } from "./model.js";

/** The request line: `#3 GET /v5/…` (the number only when the order matters). */
export function requestLine(evidence: Evidence): string | undefined {
  const r = evidence.request;
  if (!r) return undefined;
  return `${r.seq === undefined ? "" : `#${r.seq} `}${r.method} ${r.url}`;
}

/** A case's explanation as plain lines (rule, why, request, response, diagnostics, fix), for CI reports. */
export function explanation(item: Finding): string[] {
  const lines = [`rule: ${item.rule}`, `why: ${item.reason}`];
  const evidence = item.evidence;
  if (evidence) {
    const request = requestLine(evidence);
    if (request) lines.push(`request: ${request}`);
    if (evidence.response) {
      lines.push(`response: ${evidence.response.status}`);
      if (evidence.response.excerpt !== undefined) lines.push(`offending part: ${evidence.response.excerpt}`);
    }
    for (const line of evidence.diagnostics ?? []) lines.push(`- ${line}`);
  }
  if (item.fix !== undefined) lines.push(`fix: ${item.fix}`);
  return lines;
}
