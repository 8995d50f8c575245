/**
 * The one error type of the project: a mistake by the user (bad flag, bad file, unreachable target),
 * never a provider's rule violation (those are verdicts, returned as data).
 */
export type ErrorCode =
  | "usage"
  | "bad-contract"
  | "bad-cassette"
  | "bad-input"
  | "unreachable"
  | "conflict"
  | "rate-limited"
  | "internal";

/** Where a problem sits in a file, printed as `file:line:column`. */
export interface SourceLocation {
  file: string;
  line?: number;
  column?: number;
}

export interface AssopayErrorOptions {
  /** What the user can do about it, one sentence. */
  hint?: string;
  location?: SourceLocation;
  cause?: unknown;
}

export class AssopayError extends Error {
  readonly code: ErrorCode;
  readonly hint: string | undefined;
  readonly location: SourceLocation | undefined;
  /** Every user mistake exits 2; verdicts use 0 and 1 and never come through here. */
  readonly exitCode = 2;

  constructor(code: ErrorCode, message: string, options: AssopayErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "AssopayError";
    this.code = code;
    this.hint = options.hint;
    this.location = options.location;
  }
}

/** `file:line:column`, with what is known. */
export function formatLocation(location: SourceLocation): string {
  let text = location.file;
  if (location.line !== undefined) text += `:${location.line}`;
  if (location.line !== undefined && location.column !== undefined) text += `:${location.column}`;
  return text;
}

/** The text printed for an error: `error[code]: file:line: message` and a `hint:` line. */
export function formatError(error: AssopayError): string {
  const where = error.location ? `${formatLocation(error.location)}: ` : "";
  const lines = [`error[${error.code}]: ${where}${error.message}`];
  if (error.hint) lines.push(`hint: ${error.hint}`);
  return lines.join("\n");
}

export function isAssopayError(value: unknown): value is AssopayError {
  return value instanceof AssopayError;
}

/**
 * A verb's `--timeout`: seconds above 0 (fractions allowed), at most `max`, `example` when absent; in
 * whole milliseconds, at least 1 (what timers take). Out of bounds is a usage error.
 */
export function timeoutMs(verb: string, given: number | undefined, bounds: { example: number; max: number }) {
  const chosen = given ?? bounds.example;
  if (!Number.isFinite(chosen) || chosen <= 0 || chosen > bounds.max) {
    throw new AssopayError(
      "usage",
      `assopay ${verb}: --timeout must be a number of seconds above 0 and at most ${bounds.max}, got ${chosen}`,
      { hint: `for example --timeout ${bounds.example} (fractions allowed: 1.5)` },
    );
  }
  return Math.max(1, Math.round(chosen * 1000));
}

/** `text` as a URL when it is an absolute http or https one. */
export function httpUrl(text: string): URL | undefined {
  const url = URL.canParse(text) ? new URL(text) : undefined;
  return url?.protocol === "http:" || url?.protocol === "https:" ? url : undefined;
}

/** The names of repeated flags or comma lists (`a,b` `c`), trimmed, empty ones left out. */
export function commaList(texts: readonly string[]): string[] {
  return texts.flatMap((t) => t.trim().split(/\s*,\s*/)).filter((t) => t !== "");
}
