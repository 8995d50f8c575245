import { AssopayError } from "../../core/errors.js";
import { DEFAULT_REPORTER, parseReporter, REPORTER_CHOICE } from "../../report/index.js";
import { type LintResult, lintReport, runLint } from "../../specs/lint/run.js";
import { lintAcrossDates, lintTimelineReport } from "../../specs/lint/timeline.js";
import { type Command, contractLoader } from "../command.js";
import { atEachFlag, atEachHelp, dateFlag, parseFlags, printReport, stringFlag } from "../flags.js";

const HELP = `assopay lint: judge recorded responses against the contract

Usage: assopay lint CASSETTE... [--at YYYY-MM-DD | --at-each timeline|DAY,DAY...] [--reporter ${REPORTER_CHOICE}]

Reads cassettes (assopay record, or a session recorded from the real service) and judges every recorded
response by the contract: its JSON Schema, and the rules as of the interaction's day (the response's
date header, else its recordedAt): counts by the count deprecation, v3 after its switch-off, the
pagination rules across the pages of a crawl. Nothing is sent anywhere. See docs/lint.md.

Flags:
  --at YYYY-MM-DD   judge every interaction by the rules of that day instead (a sandbox recording made
                    with its clock at that day carries the wall-clock date)
${atEachHelp(20)}
                    (the cassettes are read once and judged by each date's rules)
  --reporter NAME   ${REPORTER_CHOICE} (default ${DEFAULT_REPORTER}), written to stdout
  -h, --help        this text

Exit codes: 0 every recorded answer holds, 1 one breaks a rule, 2 bad usage or a file that is not a cassette.

Examples:
  assopay lint recordings/*.yaml --at 2025-04-01
  assopay lint session.yaml --reporter junit > lint.xml
  assopay lint session.yaml --at-each timeline --reporter html > lint.html
`;

/** Each interaction as the JSON report lists it: where, its date and the rules it breaks. */
function interactionsOf(result: LintResult) {
  return result.interactions.map((o) => ({
    file: o.step.interaction.source.file,
    line: o.step.interaction.source.line,
    id: o.step.interaction.id,
    date: o.date,
    dateFrom: o.dateFrom,
    rules: o.breaches.map((b) => b.rule),
  }));
}

export const lintCommand: Command = {
  name: "lint",
  summary: "Judge recorded cassettes against the contract's schemas and dated rules",
  help: HELP,
  async run(context) {
    const flags = parseFlags("lint", context.argv, "at= reporter= at-each=", true);
    const reporter = parseReporter("lint", stringFlag(flags, "reporter"));
    if (flags.positionals.length === 0) {
      throw new AssopayError("usage", "assopay lint: give at least one cassette", {
        hint: "for example assopay lint recordings/pagination-crawl.yaml",
      });
    }
    const contract = contractLoader(context)();
    const dates = atEachFlag("lint", flags, contract.timeline);
    if (dates !== undefined) {
      const runs = await lintAcrossDates(contract, flags.positionals, dates);
      const report = lintTimelineReport(runs, contract);
      const details = {
        cassettes: flags.positionals,
        runs: runs.map(({ result }) => ({ at: result.at, interactions: interactionsOf(result) })),
      };
      return printReport(context, report, reporter, details);
    }
    const at = dateFlag("lint", stringFlag(flags, "at"));
    const result = await runLint(contract, flags.positionals, at);
    const report = { ...lintReport(result), rules: contract.rules };
    const details = {
      cassettes: result.cassettes,
      at: result.at ?? null,
      interactions: interactionsOf(result),
    };
    return printReport(context, report, reporter, details);
  },
};
