import { AssopayError } from "../core/errors.js";

/** How a report is written: for people (`pretty`), or for CI (`json`, `junit`). */
export type ReporterName = "pretty" | "json" | "junit";

export const REPORTERS: readonly ReporterName[] = Object.freeze(["pretty", "json", "junit"]);

/**
 * Parses `--reporter`; missing means `pretty`, an unknown name is a usage error (exit 2).
 *
 * @example
 * parseReporter("gate", "junit"); // "junit"
 */
export function parseReporter(verb: string, text: string | undefined): ReporterName {
  if (text === undefined) return "pretty";
  if ((REPORTERS as readonly string[]).includes(text)) return text as ReporterName;
  throw new AssopayError(
    "usage",
    `assopay ${verb}: --reporter must be one of ${REPORTERS.join(", ")}, got "${text}"`,
    { hint: "for example --reporter junit > report.xml" },
  );
}
