import { stringify } from "yaml";

/** The two formats the document is written in. */
export type OpenApiFormat = "json" | "yaml";

/** The document as text: YAML without anchors (every tool reads it), or JSON, both ending in a newline. */
export function serializeOpenApi(document: unknown, format: OpenApiFormat): string {
  switch (format) {
    case "json":
      return `${JSON.stringify(document, null, 2)}\n`;
    case "yaml":
      return stringify(document, { aliasDuplicateObjects: false, lineWidth: 0 });
  }
}

/** The format a file name implies, if its extension tells. */
export function formatOfFile(file: string): OpenApiFormat | undefined {
  if (/\.json$/i.test(file)) return "json";
  if (/\.ya?ml$/i.test(file)) return "yaml";
  return undefined;
}
