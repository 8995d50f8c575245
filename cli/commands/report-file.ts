import { mayReplace } from "../../core/owned-file.js";
import { isJunitReport } from "../../report/index.js";

/**
 * Whether a text is a report assopay wrote, by its first line(s): the JSON report's `format`, the JUnit
 * report's root element (`isJunitReport`), the pretty report's header (`assopay verify: …`), or the HTML
 * report's `<meta name="generator" content="assopay">` right after its charset.
 */
export function isAssopayReport(text: string): boolean {
  return (
    /^\{\s*"format": "assopay-report"/.test(text) ||
    isJunitReport(text) ||
    /^assopay [a-z]+: /.test(text) ||
    /^<!DOCTYPE html>\r?\n<html lang="en"><head><meta charset="utf-8">\r?\n<meta name="generator" content="assopay">/.test(
      text,
    )
  );
}

/** `--output FILE` of a verb writing a report: refused when FILE is not a report assopay wrote (see `mayReplace`). */
export function checkReportOutput(flag: string, output: string, force: boolean): void {
  mayReplace(output, { looksOurs: isAssopayReport }, { flag, what: "a report", force });
}
