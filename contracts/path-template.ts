/** Path templates with `{name}` parameters, as the route catalogue writes them. */

export interface CompiledTemplate {
  template: string;
  params: readonly string[];
  /** Decoded parameters when the path matches, otherwise `undefined`. */
  match(pathname: string): Record<string, string> | undefined;
  /** The path with parameters filled in and percent-encoded. */
  expand(values: Readonly<Record<string, string | number>>): string;
}

const PARAM = /\{([A-Za-z][A-Za-z0-9]*)\}/g;

export function compileTemplate(template: string): CompiledTemplate {
  const params = [...template.matchAll(PARAM)].map((m) => m[1] as string);
  const source = template
    .split(PARAM)
    .map((part, index) => (index % 2 === 1 ? "([^/]+)" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("");
  const pattern = new RegExp(`^${source}/?$`, "i");
  return {
    template,
    params,
    match(pathname) {
      const found = pattern.exec(pathname);
      if (!found) return undefined;
      const values: Record<string, string> = {};
      params.forEach((name, index) => {
        const raw = found[index + 1] ?? "";
        try {
          values[name] = decodeURIComponent(raw);
        } catch {
          values[name] = raw;
        }
      });
      return values;
    },
    expand(values) {
      return template.replace(PARAM, (_, name: string) => {
        const value = values[name];
        if (value === undefined) throw new Error(`path ${template}: no value for {${name}}`);
        return encodeURIComponent(String(value));
      });
    },
  };
}
