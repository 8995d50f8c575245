import type { DriftClass, DriftFinding, DriftResult } from "../../contracts/drift/run.js";
import type { Finding, Report, ReportSuite, Verdict } from "../../report/index.js";

const SHOWN = 12;

/** Each class, in the report's order: its cases' verdict and its suite's headline. */
const CLASSES: Readonly<Record<DriftClass, { readonly verdict: Verdict; readonly headline: string }>> = {
  breaking: {
    verdict: "fail",
    headline: "breaking for clients: what the contract promises, the document no longer does",
  },
  known: {
    verdict: "pass",
    headline:
      "known divergences: contracts/divergences.yaml, the timeline or contracts/left-out.yaml explain them",
  },
  additive: { verdict: "pass", headline: "additive: more than the contract asks for, harmless to clients" },
};

/** The findings of one operation and kind as one case. */
function caseOf(group: readonly DriftFinding[], kind: DriftClass): Finding {
  const [first] = group as [DriftFinding];
  const subjects = group.map((f) => f.subject).filter((s) => s !== "");
  const more = subjects.length > SHOWN ? ", …" : "";
  const what =
    subjects.length === 0
      ? first.detail
      : `${subjects.length} × ${first.detail}: ${subjects.slice(0, SHOWN).join(", ")}${more}`;
  const because = first.explainedBy ? `; known (${first.explainedBy.id}): ${first.explainedBy.reason}` : "";
  return {
    id: `${first.kind} ${first.operation}`,
    rule: `drift.${first.kind}`,
    group: kind,
    verdict: CLASSES[kind].verdict,
    reason: `${what}${because}`,
    evidence: { diagnostics: group.map((f) => `${f.subject || f.operation}: ${f.detail}`) },
    ...(kind === "breaking"
      ? {
          fix: "align the contract with the document, or record the difference with its reason in contracts/divergences.yaml (drift:)",
        }
      : {}),
  };
}

/** Counts per kind, and for field findings how many distinct fields (listing entries merged) with examples. */
export function driftNotes(findings: readonly DriftFinding[]): string[] {
  const notes: string[] = [];
  const kinds = [...new Set(findings.map((f) => `${f.class}/${f.kind}`))].sort();
  for (const key of kinds) {
    const [kind = "", name = ""] = key.split("/");
    const of = findings.filter((f) => f.class === kind && f.kind === name);
    const fields = [...new Set(of.map((f) => f.subject.replace(/^data\[\]\./, "")).filter((s) => s !== ""))];
    const examples =
      fields.length > 0
        ? ` on ${fields.length} distinct: ${fields.slice(0, 6).join(", ")}${fields.length > 6 ? ", …" : ""}`
        : "";
    notes.push(`${kind} ${name}: ${of.length}${examples}`);
  }
  return notes;
}

/**
 * The drift result as the shared report model: one suite per class, one case per operation and kind of
 * difference (breaking ones fail, known and additive ones pass), counts and examples as notes.
 *
 * @example
 * writeReport(driftReport(result), "json", { color: false }, { drift: result });
 */
export function driftReport(result: DriftResult): Report {
  const suites: ReportSuite[] = (Object.keys(CLASSES) as DriftClass[]).map((kind) => {
    const of = result.findings.filter((f) => f.class === kind);
    const groups = new Map<string, DriftFinding[]>();
    for (const f of of)
      groups.set(`${f.kind} ${f.operation}`, [...(groups.get(`${f.kind} ${f.operation}`) ?? []), f]);
    return {
      name: kind,
      heading: [CLASSES[kind].headline],
      properties: { findings: String(of.length) },
      cases: [...groups.values()].map((group) => caseOf(group, kind)),
      notes: kind === "breaking" ? driftNotes(result.findings) : [],
    };
  });
  const breaking = result.findings.filter((f) => f.class === "breaking").length;
  const count = (kind: DriftClass) => result.findings.filter((f) => f.class === kind).length;
  return {
    tool: "assopay drift",
    name: `assopay drift: ${result.before} → ${result.after}`,
    header: `assopay drift: ${result.before} against ${result.after}`,
    result:
      breaking === 0
        ? `No unacknowledged breaking drift (${count("known")} known, ${count("additive")} additive).`
        : `${breaking} breaking difference(s) nothing acknowledges (${count("known")} known, ${count("additive")} additive).`,
    passed: breaking === 0,
    suites,
  };
}
