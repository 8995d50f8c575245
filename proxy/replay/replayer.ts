import { basename } from "node:path";
import type { DatedRules } from "../../contracts/types.js";
import type { IsoDay } from "../../core/dates.js";
import { AssopayError } from "../../core/errors.js";
import { type Problem, problem } from "../../core/http/problem.js";
import type { Cassette, MatchRule, StoredRequest } from "../cassette/format.js";
import { createRedactor, type Redactor, redactRequest } from "../redaction/redact.js";
import { type HeldResponse, hold } from "./held.js";
import { type CanonicalBody, type CanonicalRequest, canonicalize, describeRequest } from "./key.js";
import { compileRules, describeRule } from "./match-rules.js";
import { type Candidate, ReplayIndex } from "./replay-index.js";
import { KeyMemo, type Served, ServedCache } from "./start-over-map.js";
import {
  applyCounts,
  datedRulesFor,
  deprecationHeadersFor,
  goneResponse,
  type TimelineView,
} from "./timeline.js";

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
  if (body.kind === "none") return null;
  if (body.kind === "bytes")
    return body.preview ?? `${body.length} bytes (sha256 ${body.digest.slice(0, 12)}…)`;
  return body.kind === "json" ? body.value : body.text;
}

/** A form's fields, each with its values joined by commas, in the order sent. */
function joinedFields(pairs: readonly (readonly [string, string])[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, value] of pairs) out.set(name, out.has(name) ? `${out.get(name)},${value}` : value);
  return out;
}

function bodyDifferences(recorded: CanonicalBody, received: CanonicalBody, out: Difference[]): void {
  if (recorded.kind === "json" && received.kind === "json") {
    if (recorded.text !== received.text) jsonDifferences(recorded.value, received.value, "", out);
    return;
  }
  if (recorded.kind === "form" && received.kind === "form") {
    if (recorded.text === received.text) return;
    const a = joinedFields(recorded.pairs);
    const b = joinedFields(received.pairs);
    for (const key of [...new Set([...a.keys(), ...b.keys()])].sort()) {
      const x = a.get(key) ?? null;
      const y = b.get(key) ?? null;
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

/** The redactions to apply to incoming requests: one per way the cassettes were recorded. */
export function incomingProfiles(cassettes: readonly Cassette[], salt: string | undefined): Redactor[] {
  const pii = [...new Set(cassettes.map((c) => c.header.redaction.pii))];
  return (pii.length > 0 ? pii : [false]).map((flag) => createRedactor(salt, flag, false));
}

/** Warnings a set of cassettes deserves before serving. */
export function cassetteWarnings(cassettes: readonly Cassette[], salt: string | undefined): string[] {
  const out = cassettes.flatMap((c) => c.warnings.map((w) => `${w.file}:${w.line}: ${w.message}`));
  for (const c of cassettes) {
    if (c.header.redaction.salted && salt === undefined) {
      out.push(
        `${c.file}: recorded with a salt; without the same salt (ASSOPAY_CASSETTE_SALT) requests carrying secrets will not match`,
      );
    }
  }
  return out;
}

/** What replay answers one request with. */
export interface ReplayAnswer {
  kind: "hit" | "miss" | "gone";
  response: HeldResponse;
  /** Extra headers (where the interaction came from). */
  headers: Record<string, string>;
  /** One line for the event log. */
  message: string;
}

/**
 * What a request gets once every recording of it has been served: the last one again (replay, and the
 * recorder in mode `once`), or a miss (the recorder in mode `new`, which then forwards and records it).
 */
export type WhenExhausted = "repeat-last" | "miss";

export interface ReplayerOptions {
  at: IsoDay | undefined;
  view: TimelineView | undefined;
  secretSalt: string | undefined;
  /**
   * See {@link WhenExhausted} (default `repeat-last`).
   * @example { at: undefined, view: undefined, secretSalt: undefined, exhausted: "miss" }
   */
  exhausted?: WhenExhausted;
  /**
   * Match rules (`MatchRule`: how a request field is compared) besides those stored in the cassette
   * headers (a rule for the same field wins over the header's). Not the timeline's dated rules, which
   * `at` and `view` give.
   * @example { at: undefined, view: undefined, secretSalt: undefined, matchRules: [{ field: "body.returnUrl", rule: "ignore" }] }
   */
  matchRules?: readonly MatchRule[];
}

/**
 * The matching rules of a set of cassettes (their headers, in order) and of the options, merged. A
 * header rule whose pattern is no regular expression is a malformed cassette, reported with its file.
 */
export function matchingRules(cassettes: readonly Cassette[], extra: readonly MatchRule[] = []): MatchRule[] {
  for (const cassette of cassettes) {
    try {
      compileRules(cassette.header.matching ?? []);
    } catch (error) {
      throw new AssopayError("bad-cassette", `the header's matching rules: ${(error as Error).message}`, {
        location: { file: cassette.file, line: 1 },
        hint: "a regex rule's pattern is written without slashes, its flags in `flags`",
      });
    }
  }
  return [...cassettes.flatMap((c) => c.header.matching ?? []), ...extra];
}

/** The result of looking a request up: the interaction's number, if any, and the request's canonical form. */
interface Lookup {
  entry: number | undefined;
  canonical: CanonicalRequest;
  redacted: StoredRequest;
  /** The request's canonical key under each redaction profile, in the order tried. */
  keys: readonly string[];
}

/**
 * The replay logic without a server: finds the recorded response for a request, applies the timeline,
 * or explains the miss. The HTTP server and the nock entry both use it.
 */
export class Replayer {
  readonly index: ReplayIndex;
  private readonly profiles: readonly Redactor[];
  private readonly options: ReplayerOptions;
  private readonly repeatLast: boolean;
  private readonly memo = new KeyMemo();
  /** Whether a bodyless request's keys follow from its request line (not when a header rule matches). */
  private readonly memoizable: boolean;
  /** The match rules in force, as a miss lists them. */
  private readonly ruleNames: readonly string[];
  /** The interactions served lately, made once each from the index's bytes. */
  private readonly recent = new ServedCache();

  constructor(cassettes: readonly Cassette[], options: ReplayerOptions) {
    const matchRules = compileRules(matchingRules(cassettes, options.matchRules));
    this.index = new ReplayIndex(
      cassettes.flatMap((c) => c.interactions),
      matchRules,
    );
    this.memoizable = matchRules.headers.length === 0;
    this.ruleNames = matchRules.list.map(describeRule);
    this.profiles = incomingProfiles(cassettes, options.secretSalt);
    this.options = options;
    this.repeatLast = options.exhausted !== "miss";
  }

  /**
   * The answer to a bodyless request whose request line was seen before and matches a recording, found
   * from the line alone (no decoding, redaction or hashing); undefined sends the caller to `answer`.
   * `line` is `KeyMemo.line(method, url)`, made once by the caller, who passes it to `answer` too.
   */
  answerSeen(line: string, method: string, url: string): ReplayAnswer | undefined {
    if (!this.memoizable) return undefined;
    const keys = this.memo.get(line);
    if (!keys) return undefined;
    const mark = url.indexOf("?");
    const path = mark < 0 ? url : url.slice(0, mark);
    const dated = this.datedRules(method, path);
    if (dated && !dated.served) return undefined;
    for (const key of keys) {
      const entry = this.index.take(key, this.repeatLast);
      if (entry !== undefined) return this.hit(entry, dated, method, path);
    }
    return undefined;
  }

  /**
   * The answer to a request: the recorded response, the timeline's 404, or the miss problem (status 501,
   * the closest recordings and each difference). `line` (the request line as sent, for a request without
   * a body) lets the next identical request be answered by `answerSeen`.
   */
  answer(request: StoredRequest, line?: string): ReplayAnswer {
    const served = this.serve(request, line);
    return "kind" in served ? served : this.miss(served);
  }

  /**
   * The answer to a request when the cassettes hold one (a hit, or the timeline's 404); undefined for a
   * miss, left to the caller (the recorder in mode `new` forwards it), unexplained.
   */
  served(request: StoredRequest): ReplayAnswer | undefined {
    const served = this.serve(request, undefined);
    return "kind" in served ? served : undefined;
  }

  /** The answer when there is one, else the lookup that found nothing (to explain it). */
  private serve(request: StoredRequest, line: string | undefined): ReplayAnswer | Lookup {
    const dated = this.datedRules(request.method, request.path);
    if (dated && !dated.served) {
      return {
        kind: "gone",
        response: hold(goneResponse(dated)),
        headers: {},
        message: `${request.method} ${request.path} → 404 (switched off at ${this.options.at})`,
      };
    }
    const found = this.lookup(request);
    if (line !== undefined && this.memoizable) this.memo.set(line, found.keys);
    return found.entry !== undefined ? this.hit(found.entry, dated, request.method, request.path) : found;
  }

  /**
   * Finds the recorded interaction for a request. The request is redacted the way each cassette was
   * (`profiles`, one at least: secrets always, personal data when the cassette says so) so that a real
   * secret matches its placeholder.
   */
  private lookup(request: StoredRequest): Lookup {
    const { profiles } = this;
    // Redaction changes JSON bodies in place: each way of redacting gets its own copy.
    const forms = profiles.map((profile) => {
      const redacted = redactRequest(profiles.length > 1 ? structuredClone(request) : request, profile);
      return { redacted, canonical: canonicalize(redacted, this.index.rules) };
    });
    const keys = forms.map((form) => form.canonical.key);
    for (const form of forms) {
      const entry = this.index.take(form.canonical.key, this.repeatLast);
      if (entry !== undefined) return { entry, ...form, keys };
    }
    return { entry: undefined, ...(forms[0] as (typeof forms)[number]), keys };
  }

  /** Starts every sequence over: identical requests get their recordings from the first again. */
  reset(): void {
    this.index.reset();
  }

  /** The one answer to a miss: a problem naming the closest recordings and how each differs. */
  private miss(found: Lookup): ReplayAnswer {
    const shown = describeRequest(found.redacted);
    const candidates = this.index.candidates(found.canonical);
    const miss = explainMiss(found.canonical, shown, candidates, this.index.size, this.ruleNames);
    const text = JSON.stringify(miss);
    return {
      kind: "miss",
      response: hold({
        status: miss.status,
        headers: { "content-type": "application/problem+json" },
        body: { text },
      }),
      headers: {},
      message: miss.detail,
    };
  }

  /** The timeline's dated rules for the request at `--at` (not the match rules, which the index holds). */
  private datedRules(method: string, path: string): DatedRules | undefined {
    const { at, view } = this.options;
    return view && at ? datedRulesFor(view, at, method, path) : undefined;
  }

  private hit(entry: number, dated: DatedRules | undefined, method: string, path: string): ReplayAnswer {
    const { response: recorded, headers } = this.recent.getOrMake(entry, this.serving);
    const response = dated ? applyCounts(dated, this.index.request(entry), recorded) : recorded;
    return {
      kind: "hit",
      response,
      headers,
      message: `${method} ${path} → ${response.status} (${headers["x-assopay-replayed-from"]})`,
    };
  }

  /**
   * An interaction as served: its response, where it was recorded (`file.yaml:LINE`) and, at `--at`, the
   * changes ahead of its route announced (`Deprecation`, `Sunset`, `Link`).
   */
  private readonly serving = (entry: number): Served => {
    const { file, line } = this.index.source(entry);
    const { at, view } = this.options;
    const announced = view && at ? deprecationHeadersFor(view, at, this.index.request(entry)) : {};
    return {
      response: this.index.response(entry),
      headers: Object.freeze({ ...announced, "x-assopay-replayed-from": `${basename(file)}:${line}` }),
    };
  };
}
