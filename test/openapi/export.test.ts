import { validate } from "@readme/openapi-parser";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { exportOpenApi } from "../../contracts/openapi/export.js";
import { schemaComponents } from "../../contracts/openapi/schemas.js";
import { serializeOpenApi } from "../../contracts/openapi/serialize.js";
import { assertValidOpenApi } from "../../contracts/openapi/validate.js";
import type { SchemaRegistry } from "../../contracts/types.js";
import { contract, day } from "../sandbox/helpers.js";

type Doc = {
  paths: Record<string, Record<string, Record<string, unknown>>>;
  webhooks: Record<string, { post: { parameters: { name: string; required: boolean }[] } }>;
  components: { schemas: Record<string, Record<string, unknown>> };
};

const at = (date: string) => exportOpenApi(contract(), { at: day(date) }) as unknown as Doc;
const op = (doc: Doc, id: string) => {
  const route = contract().routes.byId(id);
  return doc.paths[route.path]?.[route.method.toLowerCase()] as Record<string, unknown>;
};
const withCount = (doc: Doc, id: string) =>
  (op(doc, id).parameters as { name: string; deprecated?: boolean; "x-assopay-timeline"?: unknown[] }[]).find(
    (p) => p.name === "withCount",
  );

describe("the OpenAPI export", () => {
  it("passes @readme/openapi-parser's validate(), as JSON and as YAML", async () => {
    const document = at("2025-04-01");
    for (const format of ["json", "yaml"] as const) {
      const text = serializeOpenApi(document, format);
      const result = await validate(format === "json" ? JSON.parse(text) : parse(text));
      expect(result.valid ? [] : result.errors, format).toEqual([]);
    }
  });

  it("the validator rejects a document whose reference leads nowhere", async () => {
    const document = at("2025-04-01");
    (document.components.schemas as Record<string, unknown>).payer = { $ref: "#/components/schemas/nowhere" };
    await expect(assertValidOpenApi(document)).rejects.toThrow(/not valid/);
  });

  it("has one operation per catalogued route, with its id, rights and pagination", () => {
    const doc = at("2025-04-01");
    const routes = contract().routes.all;
    const count = Object.values(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0);
    expect(count).toBe(routes.length);
    for (const route of routes) {
      const operation = op(doc, route.id);
      expect(operation.operationId).toBe(route.id);
      expect(operation["x-assopay-rights"]).toBe(route.auth);
      expect(Object.keys(operation.responses as object).sort()).toEqual(
        [route.response.status, ...route.errors].map(String).sort(),
      );
      expect(operation["x-assopay-pagination"] !== undefined).toBe(route.pagination !== undefined);
    }
    expect(op(doc, "v5.order-detail").security).toEqual([{ bearer: ["OrganizationAdmin"] }]);
    expect(op(doc, "v5.partner-info").security).toEqual([{ bearer: [] }]);
    expect(op(doc, "token").security).toEqual([]);
  });

  it("reads the timeline at --at: v3 is deprecated from the day its Deprecation names, withCount after the counts go", () => {
    const before = at("2025-01-15");
    const after = at("2026-01-01");
    expect(op(at("2021-06-29"), "v3.org-items").deprecated).toBeUndefined();
    expect(op(before, "v3.org-items").deprecated).toBe(true);
    expect(op(after, "v3.org-items").deprecated).toBe(true);
    expect(op(after, "v5.org-items").deprecated).toBeUndefined();
    expect(withCount(before, "v5.org-items")?.deprecated).toBe(false);
    expect(withCount(after, "v5.org-items")?.deprecated).toBe(true);
    expect(op(before, "v5.org-items")["x-assopay-count-mode"]).toBe("default-true");
    expect(op(after, "v5.org-items")["x-assopay-count-mode"]).toBe("absent");
  });

  it("dates the count deprecation on withCount and on the count fields, from the timeline file", () => {
    const doc = at("2025-04-01");
    const dates = contract()
      .timeline.entries.filter((e) => e.affects === "count-deprecation")
      .map((e) => ({ effect: e.effect, date: e.date, inForce: e.date <= "2025-04-01" }));
    const marks = (list: unknown) =>
      (list as { effect: string; date: string; inForce: boolean }[]).map(({ effect, date, inForce }) => ({
        effect,
        date,
        inForce,
      }));
    expect(marks(withCount(doc, "v5.form-items")?.["x-assopay-timeline"])).toEqual(dates);
    const counts = doc.components.schemas["pagination.deprecated-counts"] as {
      properties: Record<string, { deprecated: boolean; "x-assopay-timeline": unknown }>;
    };
    for (const field of ["totalCount", "totalPages"]) {
      expect(counts.properties[field]?.deprecated).toBe(true);
      expect(marks(counts.properties[field]?.["x-assopay-timeline"])).toEqual(dates);
    }
  });

  it("lists every notification type as a webhook that requires the signature header", () => {
    const doc = at("2025-04-01");
    expect(Object.keys(doc.webhooks).sort()).toEqual(
      contract()
        .notificationTypes.map((t) => t.eventType)
        .sort(),
    );
    for (const hook of Object.values(doc.webhooks))
      expect(hook.post.parameters).toContainEqual(
        expect.objectContaining({ name: "x-ha-signature", required: true }),
      );
  });

  it("gives the same bytes for the same contract and date", () => {
    expect(serializeOpenApi(at("2025-04-01"), "yaml")).toBe(serializeOpenApi(at("2025-04-01"), "yaml"));
  });
});

describe("schema components", () => {
  const registry = (schemas: Record<string, Record<string, unknown>>): SchemaRegistry =>
    ({
      names: () => Object.keys(schemas),
      schema: (name: string) => schemas[name] ?? {},
    }) as unknown as SchemaRegistry;

  it("hoists $defs and points every reference at a component", () => {
    const components = schemaComponents(
      registry({
        a: {
          $id: "x",
          type: "object",
          properties: { b: { $ref: "b.schema.json" }, t: { $ref: "#/$defs/t" } },
          $defs: { t: { type: "string" } },
        },
        b: { $ref: "a.schema.json#/$defs/t" },
      }),
    );
    expect(components).toEqual({
      a: {
        type: "object",
        properties: { b: { $ref: "#/components/schemas/b" }, t: { $ref: "#/components/schemas/a.t" } },
      },
      "a.t": { type: "string" },
      b: { $ref: "#/components/schemas/a.t" },
    });
  });

  it("refuses a reference it cannot place, naming the schema", () => {
    expect(() => schemaComponents(registry({ a: { $ref: "a.schema.json#/properties/x" } }))).toThrow(
      /schema "a" has a \$ref the OpenAPI export cannot place/,
    );
  });
});
