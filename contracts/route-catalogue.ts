import { AssopayError } from "../core/errors.js";
import { compileTemplate } from "./path-template.js";
import type { NamedListing, PaginationSpec, QueryParam, Route, RouteCatalogue, RouteMatch } from "./types.js";

interface RawRoute
  extends Omit<Route, "pathParams" | "query" | "countDeprecation" | "errors" | "pagination"> {
  query?: (QueryParam | QueryParam[])[];
  countDeprecation?: boolean;
  errors?: number[];
  pagination?: Omit<PaginationSpec, "defaultPageSize" | "maxPageSize"> &
    Partial<Pick<PaginationSpec, "defaultPageSize" | "maxPageSize">>;
}

/** Turns the validated YAML of `routes.yaml` into routes; checks what a meta-schema cannot (unique ids, schemas known). */
export function buildRouteCatalogue(
  raw: { routes: RawRoute[] },
  file: string,
  schemaNames: readonly string[],
): RouteCatalogue {
  const seen = new Set<string>();
  const fail = (message: string, hint: string) =>
    new AssopayError("bad-contract", message, { location: { file }, hint });
  const listings = new Map(raw.routes.flatMap((r) => (r.pagination ? [[r.id, r.pagination] as const] : [])));
  const namedListing = (r: RawRoute, named: { route: string; at: string }): NamedListing => {
    const target = listings.get(named.route);
    if (!target) {
      throw fail(
        `route "${r.id}" names entries of "${named.route}", which is no listing`,
        `pagination.names lists listing routes: ${[...listings.keys()].join(", ")}`,
      );
    }
    return Object.freeze({
      route: named.route,
      at: named.at,
      ...(target.filteredBy ? { filteredBy: Object.freeze([...target.filteredBy]) } : {}),
    });
  };
  const templates = raw.routes.map((r) => {
    if (seen.has(r.id))
      throw fail(`route id "${r.id}" appears twice in the route catalogue`, "give each route a unique id");
    seen.add(r.id);
    const query = (r.query ?? []).flat().map((q) => ({ ...q, required: q.required ?? false }));
    const pageSize = query.find((q) => q.name === "pageSize");
    const pagination = r.pagination && {
      resultArray: r.pagination.resultArray,
      entrySchema: r.pagination.entrySchema,
      defaultPageSize: r.pagination.defaultPageSize ?? Number(pageSize?.default ?? 20),
      maxPageSize: r.pagination.maxPageSize ?? pageSize?.max ?? 100,
      ...(r.pagination.entryKey ? { entryKey: Object.freeze([...r.pagination.entryKey]) } : {}),
      ...(r.pagination.filteredBy ? { filteredBy: Object.freeze([...r.pagination.filteredBy]) } : {}),
      ...(r.pagination.holds ? { holds: r.pagination.holds } : {}),
      ...(r.pagination.names
        ? { names: Object.freeze(r.pagination.names.map((named) => namedListing(r, named))) }
        : {}),
    };
    for (const schema of [r.response.schema, r.requestBody?.schema, pagination?.entrySchema]) {
      if (schema !== undefined && !schemaNames.includes(schema))
        throw fail(
          `route "${r.id}" names an unknown schema "${schema}"`,
          `known schemas: ${schemaNames.join(", ")}`,
        );
    }
    const template = compileTemplate(r.path);
    const route = Object.freeze({
      ...r,
      pathParams: template.params,
      query,
      countDeprecation: r.countDeprecation ?? false,
      errors: r.errors ?? [],
      ...(pagination ? { pagination } : {}),
    }) as Route;
    return { route, template };
  });
  const routes: Route[] = templates.map((t) => t.route);
  const byId = new Map(templates.map((t) => [t.route.id, t]));
  const entry = (id: string) => {
    const found = byId.get(id);
    if (!found)
      throw new AssopayError("internal", `no route with id "${id}"`, { hint: "see contracts/routes.yaml" });
    return found;
  };
  return {
    all: routes,
    byId: (id) => entry(id).route,
    pathOf: (id, values) => entry(id).template.expand(values),
    match(method, pathname): RouteMatch | undefined {
      const upper = method.toUpperCase();
      for (const { route, template } of templates) {
        if (route.method !== upper) continue;
        const params = template.match(pathname);
        if (params) return { route, params };
      }
      return undefined;
    },
    listings: () => routes.filter((r) => r.pagination !== undefined),
  };
}
