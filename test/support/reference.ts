import { readFileSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "../../core/paths.js";

/** A copy of a payload from shared/reference/examples (see test/fixtures/reference). */
export function referenceExample(name: string): unknown {
  return JSON.parse(readFileSync(join(packageRoot(), "test", "fixtures", "reference", name), "utf8"));
}

type OpenApiSchema = Record<string, unknown>;

/**
 * An instance of an OpenAPI component schema with every property filled in, as the provider's own
 * document describes it: a check that our schemas read what the provider's model allows.
 */
export function openApiInstance(component: string): unknown {
  const doc = referenceExample("openapi-components.json") as { schemas: Record<string, OpenApiSchema> };
  const build = (schema: OpenApiSchema, name: string, depth: number): unknown => {
    const ref = schema.$ref;
    if (typeof ref === "string") {
      if (depth > 16) return null;
      return build(doc.schemas[ref.slice(2)] ?? {}, name, depth + 1);
    }
    if (Array.isArray(schema.enum)) return schema.enum[0];
    switch (schema.type) {
      case "integer":
        return 7;
      case "number":
        return 5.5;
      case "boolean":
        return false;
      case "array":
        return [build((schema.items ?? {}) as OpenApiSchema, name, depth + 1)];
      case "string":
        if (schema.format === "date-time") return "2021-02-12T15:57:54.0125398+01:00";
        if (/url$/i.test(name)) return "https://example.org/resource";
        if (/country/i.test(name)) return "FRA";
        if (/email/i.test(name)) return "payer@example.org";
        return "text";
      default: {
        const properties = (schema.properties ?? {}) as Record<string, OpenApiSchema>;
        if (Object.keys(properties).length === 0) return {};
        return Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, build(v, k, depth + 1)]));
      }
    }
  };
  const schema = doc.schemas[component];
  if (!schema) throw new Error(`no OpenAPI component ${component}`);
  return build(schema, component, 0);
}

/** The provider's published OpenAPI document (vendored in contracts/reference/openapi-v5.json). */
export function publishedDocument(): {
  components: { schemas: Record<string, { properties?: Record<string, { description?: string }> }> };
} {
  const file = join(packageRoot(), "contracts", "reference", "openapi-v5.json");
  return JSON.parse(readFileSync(file, "utf8")) as ReturnType<typeof publishedDocument>;
}

/** The properties the published document gives one of its models, found by the end of its name. */
export function documentProperties(model: string): string[] {
  const schemas = publishedDocument().components.schemas;
  const name = Object.keys(schemas).find((n) => n.endsWith(`.${model}`));
  if (!name) throw new Error(`the published document has no model ${model}`);
  return Object.keys(schemas[name]?.properties ?? {});
}
