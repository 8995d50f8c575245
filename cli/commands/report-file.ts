import { mayReplace } from "../../core/owned-file.js";

/**
 * `--output FILE` of a verb writing a report: refused when FILE is not a report assopay wrote there and
 * nobody changed since (by the digest recorded when writing it, see `mayReplace`).
 */
export function checkReportOutput(flag: string, output: string, force: boolean): void {
  mayReplace(output, {}, { flag, what: "a report", force });
}
