import { AssopayError } from "../../core/errors.js";
import type { MatchRule, MatchTarget } from "../cassette/format.js";

export type { MatchRule, MatchTarget } from "../cassette/format.js";

/** Matching rules once compiled: looked up by where they apply. */
export interface CompiledRules {
  /** The rules as given (stored in the cassette header, listed in a miss). */
  readonly list: readonly MatchRule[];
  readonly body: readonly CompiledRule[];
  readonly query: ReadonlyMap<string, CompiledRule>;
  /** Header rules that add a header to the match (`type`, `regex`); `ignore` needs none: headers are not matched. */
  readonly headers: readonly CompiledRule[];
}

export interface CompiledRule {
  readonly rule: MatchRule;
  /** For body rules: the path segments, `*` for any key or index. */
  readonly segments: readonly string[];
  readonly regex: RegExp | undefined;
}

/** No rules: every field compared by value. */
export const NO_RULES: CompiledRules = Object.freeze({
  list: [],
  body: [],
  query: new Map(),
  headers: [],
});

const TARGETS: readonly MatchTarget[] = ["body", "query", "header"];

function usage(message: string, hint: string): AssopayError {
  return new AssopayError("usage", message, { hint });
}

function splitField(text: string, flag: string): { target: MatchTarget; path: string } {
  const dot = text.indexOf(".");
  const target = text.slice(0, dot) as MatchTarget;
  const path = text.slice(dot + 1);
  if (dot < 0 || !TARGETS.includes(target) || path === "") {
    throw usage(
      `${flag} ${text}: a field is body.PATH, query.NAME or header.NAME`,
      "for example --ignore body.metadata.memberId, --ignore query.ts, --ignore header.x-request-id",
    );
  }
  return { target, path: target === "body" ? path : path.toLowerCase() };
}

/**
 * Parses one `--ignore FIELD` value.
 * @example parseIgnore("body.metadata.memberId") // { field: "body.metadata.memberId", rule: "ignore" }
 */
export function parseIgnore(text: string): MatchRule {
  const { target, path } = splitField(text, "--ignore");
  return { field: `${target}.${path}`, rule: "ignore" };
}

/**
 * Parses one `--match FIELD:type` or `--match FIELD:/REGEX/FLAGS` value.
 * @example parseMatch("query.ref:/^[A-Z]{3}-\\d+$/") // { field: "query.ref", rule: "regex", pattern: "^[A-Z]{3}-\\d+$" }
 */
export function parseMatch(text: string): MatchRule {
  const colon = text.indexOf(":");
  const how = colon < 0 ? "" : text.slice(colon + 1);
  const { target, path } = splitField(colon < 0 ? text : text.slice(0, colon), "--match");
  const field = `${target}.${path}`;
  if (how === "type") return { field, rule: "type" };
  const regex = /^\/(.*)\/([a-z]*)$/s.exec(how);
  if (!regex) {
    throw usage(
      `--match ${text}: say how to match, FIELD:type or FIELD:/REGEX/`,
      "for example --match body.amount:type or --match 'query.ref:/^[A-Z]{3}-\\d+$/'",
    );
  }
  const pattern = regex[1] ?? "";
  const flags = regex[2] ?? "";
  compileRegex(pattern, flags, `--match ${text}`);
  return flags ? { field, rule: "regex", pattern, flags } : { field, rule: "regex", pattern };
}

function compileRegex(pattern: string, flags: string | undefined, where: string): RegExp {
  try {
    return new RegExp(pattern, flags);
  } catch (error) {
    throw usage(
      `${where}: not a regular expression (${(error as Error).message})`,
      "write it as /PATTERN/FLAGS",
    );
  }
}

/** `ignore body.returnUrl`, `type body.amount`, `regex query.ref /^x$/`: how a miss lists the rules. */
export function describeRule(rule: MatchRule): string {
  const regex = rule.rule === "regex" ? ` /${rule.pattern ?? ""}/${rule.flags ?? ""}` : "";
  return `${rule.rule} ${rule.field}${regex}`;
}

/** Compiles rules; the same field given twice keeps the last rule. Rules of several cassettes are merged. */
export function compileRules(rules: readonly MatchRule[]): CompiledRules {
  if (rules.length === 0) return NO_RULES;
  const byField = new Map<string, MatchRule>();
  for (const rule of rules) byField.set(rule.field, rule);
  const list = [...byField.values()];
  const body: CompiledRule[] = [];
  const query = new Map<string, CompiledRule>();
  const headers: CompiledRule[] = [];
  for (const rule of list) {
    const dot = rule.field.indexOf(".");
    const target = rule.field.slice(0, dot) as MatchTarget;
    const path = rule.field.slice(dot + 1);
    const regex =
      rule.rule === "regex" ? compileRegex(rule.pattern ?? "", rule.flags, rule.field) : undefined;
    const compiled = { rule, segments: path.split("."), regex };
    if (target === "body") body.push(compiled);
    else if (target === "query") query.set(path.toLowerCase(), compiled);
    else if (target === "header" && rule.rule !== "ignore")
      headers.push({ ...compiled, segments: [path.toLowerCase()] });
  }
  return Object.freeze({ list, body, query, headers });
}

/**
 * What a value is compared as under a rule: `undefined` removes it (ignore), a type rule keeps its JSON
 * type only, a regex rule one marker for every value it matches (a value it does not match is kept, so it
 * differs).
 */
export function ruleValue(rule: CompiledRule, value: unknown): unknown {
  const how = rule.rule.rule;
  if (how === "ignore") return undefined;
  if (how === "type")
    return `<type:${value === null ? "null" : Array.isArray(value) ? "array" : typeof value}>`;
  return typeof value === "string" && rule.regex?.test(value) ? `<matches:${rule.rule.field}>` : value;
}

function applyAt(value: unknown, segments: readonly string[], at: number, rule: CompiledRule): unknown {
  if (value === null || typeof value !== "object") return value;
  const segment = segments[at];
  if (segment === undefined) return value;
  const last = at === segments.length - 1;
  const copy: Record<string, unknown> | unknown[] = Array.isArray(value)
    ? [...value]
    : { ...(value as Record<string, unknown>) };
  const keys = segment === "*" ? Object.keys(copy) : [segment];
  for (const key of keys) {
    if (!Object.hasOwn(copy, key)) continue;
    const current = (copy as Record<string, unknown>)[key];
    const next = last ? ruleValue(rule, current) : applyAt(current, segments, at + 1, rule);
    if (next === undefined && !Array.isArray(copy)) delete (copy as Record<string, unknown>)[key];
    else (copy as Record<string, unknown>)[key] = next ?? null;
  }
  return copy;
}

/** A JSON body as the rules compare it (a copy; the value given is not changed). */
export function applyBodyRules(value: unknown, rules: CompiledRules): unknown {
  let out = value;
  for (const rule of rules.body) out = applyAt(out, rule.segments, 0, rule);
  return out;
}

/**
 * The rules of the `--ignore` and `--match` flags, in that order.
 * @example matchRulesFromFlags(["body.returnUrl"], ["body.amount:type"])
 */
export function matchRulesFromFlags(ignore: readonly string[], match: readonly string[]): MatchRule[] {
  return [...ignore.map(parseIgnore), ...match.map(parseMatch)];
}

/**
 * The match rules an options object gives, read once where options are resolved: `matchRules`, else
 * `rules` (its deprecated earlier name), else none.
 * @example matchRulesOption({ rules: [{ field: "body.returnUrl", rule: "ignore" }] })
 */
export function matchRulesOption(options: {
  readonly matchRules?: readonly MatchRule[];
  readonly rules?: readonly MatchRule[];
}): readonly MatchRule[] {
  return Object.freeze([...(options.matchRules ?? options.rules ?? [])]);
}
