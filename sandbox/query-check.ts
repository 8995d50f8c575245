import {
  type DatedRules,
  type QueryParam,
  queryBoolean,
  queryValue,
  type Route,
} from "../contracts/index.js";
import type { FaultName } from "./faults.js";

/** Query values read and checked against the route's declared parameters. */
export interface CheckedQuery {
  integers: Map<string, number>;
  booleans: Map<string, boolean>;
  dates: Map<string, number>;
  strings: Map<string, string>;
  /** Field name → messages, in the ASP.NET validation shape. Empty when the query is fine. */
  errors: Record<string, string[]>;
}

const SORT_ORDERS = ["asc", "desc"];

/** Whether a parameter exists at the date (withCount exists only between its introduction and removal). */
function existsAt(param: QueryParam, rules: DatedRules): boolean {
  return param.name.toLowerCase() !== "withcount" || rules.withCountParam;
}

/**
 * Reads every query parameter the route declares (names case-insensitive, booleans `true`/`True`),
 * checking types, `max` (pageSize ≤ 100) and the few values the service constrains. Parameters the
 * route does not declare are ignored, as the service does.
 */
export function checkQuery(
  route: Route,
  rules: DatedRules,
  query: URLSearchParams,
  fault?: FaultName,
): CheckedQuery {
  const checked: CheckedQuery = {
    integers: new Map(),
    booleans: new Map(),
    dates: new Map(),
    strings: new Map(),
    errors: {},
  };
  const fail = (name: string, message: string) => {
    checked.errors[name] = [...(checked.errors[name] ?? []), message];
  };
  for (const param of route.query) {
    const raw = queryValue(query, param.name);
    if (raw === undefined) continue;
    switch (param.type) {
      case "integer": {
        const value = Number(raw);
        if (!/^\s*[+-]?\d+\s*$/.test(raw) || !Number.isSafeInteger(value)) {
          fail(param.name, `The value '${raw}' is not valid for ${param.name}.`);
        } else if (
          value < 1 ||
          (param.max !== undefined && value > param.max && fault !== "oversized-pages")
        ) {
          fail(param.name, `The field ${param.name} must be between 1 and ${param.max ?? 2147483647}.`);
        } else {
          checked.integers.set(param.name, value);
        }
        break;
      }
      case "boolean": {
        const value = queryBoolean(query, param.name);
        if (typeof value === "boolean") checked.booleans.set(param.name, value);
        else if (existsAt(param, rules))
          fail(param.name, `The value '${raw}' is not valid for ${param.name}.`);
        break;
      }
      case "date-time": {
        const value = Date.parse(raw);
        if (Number.isNaN(value)) fail(param.name, `The value '${raw}' is not valid for ${param.name}.`);
        else checked.dates.set(param.name, value);
        break;
      }
      case "string":
      case "string[]":
        if (param.name === "sortOrder" && !SORT_ORDERS.includes(raw.toLowerCase())) {
          fail(param.name, `The value '${raw}' is not valid for ${param.name}: use Asc or Desc.`);
        } else {
          checked.strings.set(param.name, raw);
        }
        break;
    }
  }
  return checked;
}
