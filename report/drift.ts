import type { Finding, Report, ReportSuite } from "./model.js";

const SHOWN = 12;

/** Each class of difference (a drift finding's group), in the report's order, and its suite's headline. */
const CLASSES = {
  breaking: "breaking for clients: what the contract promises, the document no longer does",
  known:
    "known divergences: contracts/divergences.yaml, the timeline or contracts/left-out.yaml explain them",
  additive: "additive: more than the contract asks for, harmless to clients",
} as const;

/** What a drift finding's evidence says of where it lies (every drift finding has one). */
const whereOf = (finding: Finding) => finding.evidence?.difference ?? { operation: finding.id, subject: "" };

/** The findings of one operation and kind (one id) as one case. */
function caseOf(group: readonly Finding[]): Finding {
  const [first] = group as [Finding];
  const subjects = group.map((f) => whereOf(f).subject).filter((s) => s !== "");
  const more = subjects.length > SHOWN ? ", …" : "";
  const what =
    subjects.length === 0
      ? first.reason
      : `${subjects.length} × ${first.reason}: ${subjects.slice(0, SHOWN).join(", ")}${more}`;
  const known = first.evidence?.difference?.explainedBy;
  return {
    ...first,
    reason: `${what}${known ? `; known (${known.id}): ${known.reason}` : ""}`,
    evidence: { diagnostics: group.map((f) => `${whereOf(f).subject || whereOf(f).operation}: ${f.reason}`) },
  };
}

/** Counts per kind, and for field findings how many distinct fields (listing entries merged) with examples. */
export function driftNotes(findings: readonly Finding[]): string[] {
  const notes: string[] = [];
  const kinds = [...new Set(findings.map((f) => `${f.group}/${f.rule.replace(/^drift\./, "")}`))].sort();
  for (const key of kinds) {
    const [kind = "", name = ""] = key.split("/");
    const of = findings.filter((f) => f.group === kind && f.rule === `drift.${name}`);
    const subjects = of.map((f) => whereOf(f).subject.replace(/^data\[\]\./, ""));
    const fields = [...new Set(subjects.filter((s) => s !== ""))];
    const examples =
      fields.length > 0
        ? ` on ${fields.length} distinct: ${fields.slice(0, 6).join(", ")}${fields.length > 6 ? ", …" : ""}`
        : "";
    notes.push(`${kind} ${name}: ${of.length}${examples}`);
  }
  return notes;
}

/**
 * A drift result (`runDrift`: one finding per difference, its group the class) as the shared report
 * model: one suite per class, one case per operation and kind of difference (breaking ones fail, known
 * and additive ones pass), counts and examples as notes.
 *
 * @example
 * writeReport(driftReport(result), "json", { color: false }, { drift: result });
 */
export function driftReport(result: {
  readonly before: string;
  readonly after: string;
  readonly findings: readonly Finding[];
}): Report {
  const count = (kind: keyof typeof CLASSES) => result.findings.filter((f) => f.group === kind).length;
  const suites: ReportSuite[] = (Object.keys(CLASSES) as (keyof typeof CLASSES)[]).map((kind) => {
    const groups = new Map<string, Finding[]>();
    for (const f of result.findings.filter((f) => f.group === kind))
      groups.set(f.id, [...(groups.get(f.id) ?? []), f]);
    return {
      name: kind,
      heading: [CLASSES[kind]],
      properties: { findings: String(count(kind)) },
      cases: [...groups.values()].map(caseOf),
      notes: kind === "breaking" ? driftNotes(result.findings) : [],
    };
  });
  const breaking = count("breaking");
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
