/**
 * The one judge of which provider rule a status breaks: a refusal where an answer was due, an answer
 * where a refusal was. Who knows it was due decides what to send: verify's crawler asked for a page with
 * a valid token (`stopRule`), `verify --cassette` and lint take the recording's status as due
 * (`specs/rerun/status.ts`).
 */
import { FILES_RULE, PUBLIC_FORM_RULE } from "./schema-judge.js";
import type { Route } from "./types.js";

/** The rules of the routes whose refusal their own check owns; any other v5 route's is v5's. */
const OWNERS: Readonly<Record<string, string>> = {
  token: "auth.tokens",
  "v5.order-detail": FILES_RULE,
  "v5.attached-file": "rights.file-needs-organization-admin",
  "v5.public-form": PUBLIC_FORM_RULE,
};

/**
 * The rule a refusal of `route` breaks where an answer was due: a listing's continuation page, the
 * token's; a v3 route (a listing), served before its switch-off; else the route's own check's, or v5's,
 * unaffected by the switch-off.
 *
 * @example refusalRule(routes.byId("v5.form-items"), true) // "pagination.token-echoed"
 */
export function refusalRule(route: Route, continuation: boolean): string {
  if (route.pagination && continuation) return "pagination.token-echoed";
  if (route.version === "v3") return "versions.v3-served-before-switch-off";
  return OWNERS[route.id] ?? "versions.v5-unaffected";
}

/**
 * The rule an answer of `route` breaks where the recording's refusal (`refused`) was due: a refused
 * credential's (the attached file's admin right), or a page size over the listing's maximum; `undefined`
 * where no rule owns the refusal.
 *
 * @example acceptanceRule(routes.byId("v5.form-items"), 400, 500) // "pagination.page-size"
 */
export function acceptanceRule(route: Route, refused: number, pageSize: number): string | undefined {
  if (refused === 401 || refused === 403)
    return route.id === "v5.attached-file" ? OWNERS[route.id] : "auth.tokens";
  if (refused === 400 && route.pagination && pageSize > route.pagination.maxPageSize)
    return "pagination.page-size";
  return undefined;
}
