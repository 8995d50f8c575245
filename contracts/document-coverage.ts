import type { LeftOutOperation } from "./left-out.js";
import type { Route } from "./types.js";

/** One operation of an OpenAPI document: its method and its path under the document's server. */
export interface DocumentOperation {
  method: string;
  path: string;
}

const METHODS = ["get", "post", "put", "delete", "patch"] as const;

/** The key two operations are matched by: path templates without their parameter names and case (`{slug}` ≡ `{organizationSlug}`). */
export const operationKey = (method: string, path: string) =>
  `${method.toUpperCase()} ${path.toLowerCase().replace(/\{[^}]+\}/g, "{}")}`;

/**
 * The operations of an OpenAPI 3 document, with `prefix` (the server's path, `/v5`) before each path.
 *
 * @example
 * documentOperations(JSON.parse(text), "/v5"); // [{ method: "GET", path: "/v5/payments/{paymentId}" }, …]
 */
export function documentOperations(document: unknown, prefix: string): DocumentOperation[] {
  const paths = (document as { paths?: Record<string, Record<string, unknown>> }).paths ?? {};
  const out: DocumentOperation[] = [];
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      if (item[method] !== undefined) out.push({ method: method.toUpperCase(), path: `${prefix}${path}` });
    }
  }
  return out;
}

/** What is wrong between the document, the catalogue and the left-out list: one sentence each. */
export function coverageProblems(
  operations: readonly DocumentOperation[],
  routes: readonly Pick<Route, "method" | "path">[],
  leftOut: readonly LeftOutOperation[],
): string[] {
  const catalogued = new Set(routes.map((r) => operationKey(r.method, r.path)));
  const omitted = new Map(leftOut.map((o) => [operationKey(o.method, o.path), o]));
  const inDocument = new Set(operations.map((o) => operationKey(o.method, o.path)));
  const problems: string[] = [];
  for (const op of operations) {
    const key = operationKey(op.method, op.path);
    if (!catalogued.has(key) && !omitted.has(key))
      problems.push(
        `${op.method} ${op.path} is in neither contracts/routes.yaml nor contracts/left-out.yaml`,
      );
    if (catalogued.has(key) && omitted.has(key))
      problems.push(`${op.method} ${op.path} is both catalogued and left out`);
  }
  for (const [key, op] of omitted) {
    if (!inDocument.has(key)) problems.push(`${op.method} ${op.path} is left out but not in the document`);
    if (op.reason.trim() === "") problems.push(`${op.method} ${op.path} is left out without a reason`);
  }
  return problems;
}
