import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runDrift } from "../../contracts/drift/run.js";
import { loadContract } from "../../contracts/index.js";
import type { IsoDay } from "../../core/dates.js";
import type { Finding } from "../../core/finding.js";
import { runCli } from "../support/run-cli.js";

const contract = loadContract();
const at = "2026-01-15" as IsoDay;
const dir = mkdtempSync(join(tmpdir(), "assopay-drift-classify-"));

type Param = { name: string; required?: boolean };

/** A one-operation OpenAPI 3.0 document: a listing of items with `params` and an item model. */
function document(params: readonly Param[], item: Record<string, unknown>, required: string[]): unknown {
  return {
    openapi: "3.0.1",
    servers: [{ url: "https://api.example.test/v5" }],
    paths: {
      "/organizations/{organizationSlug}/items": {
        get: {
          parameters: [
            { name: "organizationSlug", in: "path", required: true, schema: { type: "string" } },
            ...params.map((p) => ({
              name: p.name,
              in: "query",
              required: p.required ?? false,
              schema: { type: "string" },
            })),
          ],
          responses: {
            "200": { content: { "application/json": { schema: { $ref: "#/components/schemas/Page" } } } },
          },
        },
      },
    },
    components: {
      schemas: {
        Page: {
          type: "object",
          required: ["data"],
          properties: { data: { type: "array", items: { $ref: "#/components/schemas/Item" } } },
        },
        Item: { type: "object", required, properties: item },
      },
    },
  };
}

const ITEM = { id: { type: "integer" }, state: { type: "string", enum: ["Processed", "Registered"] } };
const BASE = document([{ name: "pageSize" }, { name: "withCount" }], ITEM, ["id", "state"]);

let n = 0;
function drift(before: unknown, after: unknown): Finding[] {
  n += 1;
  const old = join(dir, `old-${n}.json`);
  const now = join(dir, `new-${n}.json`);
  writeFileSync(old, JSON.stringify(before));
  writeFileSync(now, JSON.stringify(after));
  return [...runDrift(contract, { openapi: now, since: old, at }).findings];
}

const kinds = (findings: Finding[]) =>
  findings.map((f) => `${f.group} ${f.rule.replace("drift.", "")} ${f.evidence?.difference?.subject}`);

describe("breaking for clients", () => {
  it("flags a required field made nullable or optional, a removed parameter, a wider enum", () => {
    const after = document(
      [{ name: "withCount" }],
      {
        id: { type: "integer", nullable: true },
        state: { type: "string", enum: ["Processed", "Registered", "Refunded"] },
      },
      ["state"],
    );
    expect(kinds(drift(BASE, after)).sort()).toEqual([
      "breaking enum-widened data[].state",
      "breaking field-now-nullable data[].id",
      "breaking field-now-optional data[].id",
      "breaking parameter-removed pageSize",
    ]);
  });

  it("passes the legal variants: the same document, a field nullable in both, 3.1 null unions alike", () => {
    expect(drift(BASE, BASE)).toEqual([]);
    const nullable = document([], { id: { type: "integer", nullable: true } }, ["id"]);
    const union = document([], { id: { type: ["integer", "null"] } }, ["id"]);
    expect(drift(nullable, union)).toEqual([]);
    const anyOf = document([], { id: { anyOf: [{ type: "integer" }, { type: "null" }] } }, ["id"]);
    expect(drift(nullable, anyOf)).toEqual([]);
  });
});

describe("additive", () => {
  it("flags new optional parameters and fields, a narrower enum, as additive (not failing)", () => {
    const after = document(
      [{ name: "pageSize" }, { name: "withCount" }, { name: "sortOrder" }],
      { ...ITEM, state: { type: "string", enum: ["Processed"] }, label: { type: "string" } },
      ["id", "state"],
    );
    expect(kinds(drift(BASE, after)).sort()).toEqual([
      "additive enum-narrowed data[].state",
      "additive field-added data[].label",
      "additive parameter-added sortOrder",
    ]);
  });

  it("a new parameter that is required is not additive: it breaks every client", () => {
    const after = document(
      [{ name: "pageSize" }, { name: "withCount" }, { name: "sortOrder", required: true }],
      ITEM,
      ["id", "state"],
    );
    expect(kinds(drift(BASE, after))).toEqual(["breaking parameter-now-required sortOrder"]);
  });
});

describe("known divergences", () => {
  it("withCount leaving a listing is known, through the timeline entry", () => {
    const after = document([{ name: "pageSize" }], ITEM, ["id", "state"]);
    const [finding] = drift(BASE, after);
    expect(finding).toMatchObject({
      group: "known",
      rule: "drift.parameter-removed",
      evidence: { difference: { subject: "withCount" } },
    });
    expect(finding?.evidence?.difference?.explainedBy?.id).toBe("withcount-left-document");
  });

  it("the same removal of a parameter no entry names stays breaking", () => {
    const before = document([{ name: "pageSize" }, { name: "withCountry" }], ITEM, ["id", "state"]);
    const after = document([{ name: "pageSize" }], ITEM, ["id", "state"]);
    expect(kinds(drift(before, after))).toEqual(["breaking parameter-removed withCountry"]);
  });
});

describe("bad input", () => {
  it("a file that is not an OpenAPI document is exit 2 with its file and line", async () => {
    const file = join(dir, "not-openapi.yaml");
    writeFileSync(file, "swagger: '2.0'\npaths: {}\n");
    const result = await runCli(["drift", "--openapi", file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${file}:1`);
    expect(result.stderr).toContain("hint:");
  });

  it("a missing --openapi is a usage error", async () => {
    const result = await runCli(["drift"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--openapi FILE is required");
  });
});
