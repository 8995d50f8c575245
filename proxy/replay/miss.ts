import { type Problem, problem } from "../../core/http/problem.js";
import type { CanonicalBody, CanonicalRequest } from "./key.js";
import { describeRequest } from "./key.js";
import type { Candidate } from "./replay-index.js";

/** One field in which a recorded request differs from the one received. */
export interface Difference {
  /** `method`, `path`, `query <name>`, `body`, or `body <json path>` / `body <form field>`. */
  field: string;
  recorded: unknown;
  received: unknown;
}

const MAX_BODY_DIFFERENCES = 5;

function jsonPath(parent: string, key: string | number): string {
  if (typeof key === "number") return `${parent}[${key}]`;
  return parent === "" ? key : `${parent}.${key}`;
}

function jsonDifferences(recorded: unknown, received: unknown, path: string, out: Difference[]): void {
  if (out.length >= MAX_BODY_DIFFERENCES) return;
  const bothObjects =
    recorded !== null && received !== null && typeof recorded === "object" && typeof received === "object";
  if (bothObjects && Array.isArray(recorded) === Array.isArray(received)) {
    if (Array.isArray(recorded) && Array.isArray(received)) {
      const length = Math.max(recorded.length, received.length);
      for (let i = 0; i < length; i++) jsonDifferences(recorded[i], received[i], jsonPath(path, i), out);
      return;
    }
    const a = recorded as Record<string, unknown>;
    const b = received as Record<string, unknown>;
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    for (const key of keys) jsonDifferences(a[key], b[key], jsonPath(path, key), out);
    return;
  }
  if (JSON.stringify(recorded) !== JSON.stringify(received)) {
    out.push({
      field: path === "" ? "body" : `body ${path}`,
      recorded: recorded ?? null,
      received: received ?? null,
    });
  }
}

function bodySummary(body: CanonicalBody): unknown {
  switch (body.kind) {
    case "none":
      return null;
    case "json":
      return body.value;
    case "form":
      return body.text;
    case "bytes":
      return body.preview ?? `${body.length} bytes (sha256 ${body.digest.slice(0, 12)}…)`;
  }
}

function bodyDifferences(recorded: CanonicalBody, received: CanonicalBody, out: Difference[]): void {
  if (recorded.kind === "json" && received.kind === "json") {
    if (recorded.text !== received.text) jsonDifferences(recorded.value, received.value, "", out);
    return;
  }
  if (recorded.kind === "form" && received.kind === "form") {
    if (recorded.text === received.text) return;
    const a = Object.fromEntries(
      recorded.pairs.map(([k]) => [k, recorded.pairs.filter((p) => p[0] === k).map((p) => p[1])]),
    );
    const b = Object.fromEntries(
      received.pairs.map(([k]) => [k, received.pairs.filter((p) => p[0] === k).map((p) => p[1])]),
    );
    for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
      const x = a[key]?.join(",") ?? null;
      const y = b[key]?.join(",") ?? null;
      if (x !== y && out.length < MAX_BODY_DIFFERENCES)
        out.push({ field: `body ${key}`, recorded: x, received: y });
    }
    return;
  }
  const same =
    recorded.kind === received.kind &&
    (recorded.kind !== "bytes" || recorded.digest === (received as { digest: string }).digest);
  if (!same) out.push({ field: "body", recorded: bodySummary(recorded), received: bodySummary(received) });
}

function queryValue(values: readonly string[] | undefined): unknown {
  if (!values) return null;
  return values.length === 1 ? values[0] : values;
}

/** Every field in which `recorded` differs from `received`, in a fixed order. */
export function differences(recorded: CanonicalRequest, received: CanonicalRequest): Difference[] {
  const out: Difference[] = [];
  if (recorded.method !== received.method)
    out.push({ field: "method", recorded: recorded.method, received: received.method });
  if (recorded.path !== received.path)
    out.push({ field: "path", recorded: recorded.path, received: received.path });
  const a = new Map(recorded.query);
  const b = new Map(received.query);
  for (const name of [...new Set([...a.keys(), ...b.keys()])].sort()) {
    const x = a.get(name);
    const y = b.get(name);
    if (JSON.stringify(x) !== JSON.stringify(y)) {
      const shown = received.queryNames.get(name) ?? recorded.queryNames.get(name) ?? name;
      out.push({ field: `query ${shown}`, recorded: queryValue(x), received: queryValue(y) });
    }
  }
  bodyDifferences(recorded.body, received.body, out);
  const headers = new Map(received.headers);
  for (const [name, value] of recorded.headers) {
    const other = headers.get(name) ?? null;
    if (JSON.stringify(value) !== JSON.stringify(other))
      out.push({ field: `header ${name}`, recorded: value, received: other });
  }
  return out;
}

function weight(list: readonly Difference[]): number {
  let score = 0;
  for (const d of list)
    score += d.field === "method" ? 1000 : d.field === "path" ? 100 : d.field.startsWith("query") ? 10 : 5;
  return score;
}

/** `a`, `a and b`, `a, b and c`, `a, b, c and 2 more`. */
export function listFields(fields: readonly string[]): string {
  if (fields.length <= 1) return fields[0] ?? "";
  if (fields.length > 3) return `${fields.slice(0, 3).join(", ")} and ${fields.length - 3} more`;
  return `${fields.slice(0, -1).join(", ")} and ${fields[fields.length - 1]}`;
}

/** How many recorded requests a miss answer lists. */
const CLOSEST = 3;

/**
 * The answer to a request no recorded interaction matches: a problem document (status 501) that names the
 * request, the closest recorded requests and, for each, every field that differs.
 */
export function explainMiss(
  received: CanonicalRequest,
  shown: string,
  candidates: readonly Candidate[],
  total: number,
  rules: readonly string[] = [],
): Problem {
  const ranked = candidates
    .map((candidate, order) => ({ candidate, order, diff: differences(candidate.canonical, received) }))
    .map((r) => ({ ...r, score: weight(r.diff) }))
    .sort((x, y) => x.score - y.score || x.order - y.order)
    .slice(0, CLOSEST);
  const best = ranked[0];
  const why =
    total === 0
      ? "the cassettes hold no interactions to replay"
      : `the closest differs in ${listFields(best?.diff.map((d) => d.field) ?? [])}`;
  return problem(
    "no-match",
    501,
    "No recorded interaction matches",
    `no recorded request matches ${shown}; ${why}${rules.length > 0 ? ` (matching rules: ${rules.join(", ")})` : ""}`,
    {
      request: shown,
      ...(rules.length > 0 ? { rules } : {}),
      closest: ranked.map(({ candidate, diff }) => ({
        cassette: `${candidate.source.file}:${candidate.source.line}`,
        id: candidate.id,
        request: describeRequest(candidate.request),
        differences: diff,
      })),
    },
  );
}
