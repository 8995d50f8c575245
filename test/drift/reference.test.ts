import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runDrift } from "../../contracts/drift/run.js";
import { loadContract } from "../../contracts/index.js";
import { exportOpenApi } from "../../contracts/openapi/export.js";
import { serializeOpenApi } from "../../contracts/openapi/serialize.js";
import type { IsoDay } from "../../core/dates.js";
import { packageRoot } from "../../core/paths.js";
import { runCli } from "../support/run-cli.js";

const contract = loadContract();
const at = "2026-01-15" as IsoDay;
const CURRENT = join(packageRoot(), "contracts", "reference", "openapi-v5.json");
const DECEMBER = join(packageRoot(), "contracts", "reference", "openapi-v5.2025-12-01.json");

describe("drift between the provider's two published documents (--since)", () => {
  const result = runDrift(contract, { openapi: CURRENT, since: DECEMBER, at });

  it("pins the removal of withCount on the six listing routes, known through the timeline", () => {
    const removed = result.findings.filter((f) => f.rule === "drift.parameter-removed");
    const differences = removed.map((f) => f.evidence?.difference);
    expect(differences.map((d) => d?.subject)).toEqual(Array(6).fill("withCount"));
    expect(removed.every((f) => f.group === "known")).toBe(true);
    expect(differences.every((d) => d?.explainedBy?.id === "withcount-left-document")).toBe(true);
    expect(differences[0]?.explainedBy?.reason).toContain("timeline withcount-left-document, 2025-12-15");
  });

  it("finds nothing breaking left unacknowledged, so the verb exits 0", async () => {
    expect(result.findings.filter((f) => f.group === "breaking")).toEqual([]);
    const cli = await runCli(["drift", "--openapi", CURRENT, "--since", DECEMBER, "--at", at]);
    expect(cli.code).toBe(0);
    expect(cli.stdout).toContain("known parameter-removed: 6 on 1 distinct: withCount");
  });
});

describe("drift of the contract against the provider's current document", () => {
  const result = runDrift(contract, { openapi: CURRENT, at });
  const nullable = result.findings.filter((f) => f.rule === "drift.field-now-nullable");
  const differences = nullable.map((f) => f.evidence?.difference);
  const distinct = new Set(differences.map((d) => d?.subject.replace(/^data\[\]\./, "")));

  it("reports the fields the document makes nullable where the contract requires them", () => {
    expect(nullable.every((f) => f.group === "breaking")).toBe(true);
    expect(nullable).toHaveLength(56);
    expect(distinct.size).toBe(28);
    expect(differences).toContainEqual(
      expect.objectContaining({ operation: "GET /v5/payments/{paymentId}", subject: "payer.email" }),
    );
    expect(distinct).toContain("order.payer.lastName");
  });

  it("sees the document's enumerations as additive (item type and state, payment state, formType)", () => {
    const enums = result.findings.filter((f) => f.rule === "drift.enum-added");
    const where = enums.map((f) => f.evidence?.difference);
    const subjects = new Set(where.map((d) => `${d?.operation} ${d?.subject}`));
    expect(subjects).toContain("GET /v5/items/{itemId} type");
    expect(subjects).toContain("GET /v5/items/{itemId} state");
    expect(subjects).toContain("GET /v5/payments/{paymentId} state");
    expect(enums.every((f) => f.group === "additive")).toBe(true);
  });

  it("explains the seed's choices: v3, the token route, the files path, withCount", () => {
    const known = new Set(
      result.findings.filter((f) => f.group === "known").map((f) => f.evidence?.difference?.explainedBy?.id),
    );
    for (const id of [
      "v3-outside-v5-document",
      "token-at-domain-root",
      "attached-file-path",
      "withcount-left-document",
      "left-out",
    ])
      expect(known).toContain(id);
  });

  it("exits 1: the nullability findings are breaking and nothing acknowledges them", async () => {
    const cli = await runCli(["drift", "--openapi", CURRENT, "--at", at, "--reporter", "json"]);
    expect(cli.code).toBe(1);
    const report = JSON.parse(cli.stdout) as {
      tool: string;
      passed: boolean;
      drift: { findings: unknown[] };
    };
    expect(report.tool).toBe("assopay drift");
    expect(report.passed).toBe(false);
    expect(report.drift.findings).toHaveLength(result.findings.length);
  });
});

describe("drift of the contract against its own export", () => {
  it.each(["2024-12-01", "2025-04-01", "2026-01-15"])("finds nothing at %s", (day) => {
    const dir = mkdtempSync(join(tmpdir(), "assopay-drift-"));
    const file = join(dir, "contract.yaml");
    writeFileSync(file, serializeOpenApi(exportOpenApi(contract, { at: day as IsoDay }), "yaml"));
    expect(runDrift(contract, { openapi: file, at: day as IsoDay }).findings).toEqual([]);
  });
});
