import type { ConsumerRules } from "../../contracts/consumer-rules.js";
import { SIGNATURE_HEADER } from "../../core/notification-signature.js";
import {
  type Evidence,
  type Finding,
  type PrettyOptions,
  type Report,
  type ReporterName,
  type Verdict,
  writeReport,
} from "../../report/index.js";
import type { CaseOutcome, CaseVerdict, NotifyReport } from "../verdict.js";

/** A note reports what an advice case saw: shown as a warning, never a failure. */
const VERDICT: Readonly<Record<CaseOutcome, Verdict>> = { pass: "pass", fail: "fail", note: "warn" };

/** Each delivery of a case: the request with its signature, the body sent, and the answer. */
function deliveriesOf(c: CaseVerdict, to: string): Evidence | undefined {
  const sent = c.sent ?? [];
  const first = sent[0];
  if (!first) return undefined;
  const answer = c.results[0];
  const lines = sent.map((d, i) => {
    const r = c.results[i];
    const said = !r
      ? "not sent"
      : r.kind === "answered"
        ? `answered ${r.status} ${r.excerpt}`
        : `no answer: ${r.error}`;
    const read = d.reads ? `; read from the API first: ${d.reads.join(", ") || "nothing"}` : "";
    return `delivery ${i + 1}: ${SIGNATURE_HEADER}: ${d.signature ?? "(none)"}; body ${d.body}; ${said}${read}`;
  });
  return {
    request: {
      method: "POST",
      url: first.url ?? to,
      headers: {
        "content-type": "application/json",
        ...(first.signature === undefined ? {} : { [SIGNATURE_HEADER]: first.signature }),
      },
    },
    ...(answer?.kind === "answered" ? { response: { status: answer.status, excerpt: answer.excerpt } } : {}),
    diagnostics: lines,
  };
}

function notifyCase(c: CaseVerdict, rules: ConsumerRules, to: string): Finding {
  const evidence = deliveriesOf(c, to);
  return {
    id: c.id,
    rule: c.rule,
    group: c.rule,
    verdict: VERDICT[c.outcome],
    reason: c.reason,
    ...(evidence ? { evidence } : {}),
    ...(c.outcome === "fail" ? { fix: rules.byId(c.rule).fix } : {}),
  };
}

/** A notify run as the shared report model: one suite, one case per battery case; notes and diagnosis as notes. */
export function notifyReportModel(report: NotifyReport, rules: ConsumerRules): Report {
  const failed = report.cases.filter((c) => c.outcome === "fail");
  return {
    tool: "assopay notify",
    name: `assopay notify: ${report.to}`,
    header: `assopay notify: ${report.cases.length} cases sent to ${report.to}`,
    result:
      failed.length === 0
        ? "Result: the receiver answers every case as it should."
        : `Result: ${failed.length} of ${report.cases.length} cases fail (${[...new Set(failed.map((c) => c.rule))].join(", ")}).`,
    passed: report.passed,
    rules: rules.all.filter((rule) => rule.applies === "notify"),
    suites: [
      {
        name: "notify",
        properties: { to: report.to },
        cases: report.cases.map((c) => notifyCase(c, rules, report.to)),
        notes: [
          ...report.cases.filter((c) => c.outcome === "note").map((c) => `${c.id}: ${c.reason}`),
          ...report.diagnosis,
        ],
      },
    ],
  };
}

/** Writes a notify report the chosen way; the JSON keeps notify's own `cases` and `diagnosis`. */
export function formatNotifyReport(
  report: NotifyReport,
  rules: ConsumerRules,
  reporter: ReporterName,
  options: PrettyOptions = { color: false },
): string {
  // The JSON report's own `cases` stay as they were: what was sent is in each case's evidence.
  const cases = report.cases.map(({ sent: _sent, ...c }) => c);
  return writeReport(notifyReportModel(report, rules), reporter, options, { ...report, cases });
}
