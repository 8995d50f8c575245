import { AssopayError } from "../core/errors.js";

/**
 * How a report is written: for people (`pretty`; `compact`, its failures and counts only, for a CI log;
 * `html`), or for CI tools (`json`, `junit`).
 */
export const REPORTERS = Object.freeze(["pretty", "compact", "json", "junit", "html"] as const);

export type ReporterName = (typeof REPORTERS)[number];

/** The reporter when `--reporter` is not given. */
export const DEFAULT_REPORTER: ReporterName = "pretty";

/** The reporters as the help texts show the choice: `pretty|compact|json|junit|html`. */
export const REPORTER_CHOICE = REPORTERS.join("|");

/**
 * Parses `--reporter`; missing means `pretty`, an unknown name is a usage error (exit 2).
 *
 * @example
 * parseReporter("gate", "junit"); // "junit"
 */
export function parseReporter(verb: string, text: string | undefined): ReporterName {
  if (text === undefined) return DEFAULT_REPORTER;
  if ((REPORTERS as readonly string[]).includes(text)) return text as ReporterName;
  throw new AssopayError(
    "usage",
    `assopay ${verb}: --reporter must be one of ${REPORTERS.join(", ")}, got "${text}"`,
    { hint: "for example --reporter junit > report.xml" },
  );
}
