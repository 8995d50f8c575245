import type { Finding } from "./model.js";

/**
 * A case's explanation in the order every report gives it, each line a label and its text: rule, why,
 * request, its headers (label `""`), response, offending part, each diagnostic (label `-`), fix.
 */
export function explanationParts(item: Finding): [label: string, text: string][] {
  const parts: [string, string][] = [
    ["rule", item.rule],
    ["why", item.reason],
  ];
  const evidence = item.evidence;
  const r = evidence?.request;
  // `#3 GET /v5/…`: the number only when the order matters.
  if (r) parts.push(["request", `${r.seq === undefined ? "" : `#${r.seq} `}${r.method} ${r.url}`]);
  for (const [name, value] of Object.entries(r?.headers ?? {})) parts.push(["", `${name}: ${value}`]);
  if (evidence?.response) parts.push(["response", String(evidence.response.status)]);
  if (evidence?.response?.excerpt !== undefined) parts.push(["offending part", evidence.response.excerpt]);
  for (const line of evidence?.diagnostics ?? []) parts.push(["-", line]);
  if (item.fix !== undefined) parts.push(["fix", item.fix]);
  return parts;
}

/** A case's explanation as plain lines (its headers left out), for CI reports. */
export function explanation(item: Finding): string[] {
  return explanationParts(item)
    .filter(([label]) => label !== "")
    .map(([label, text]) => (label === "-" ? `- ${text}` : `${label}: ${text}`));
}
