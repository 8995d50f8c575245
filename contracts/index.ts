import { join } from "node:path";
import { contractsDir } from "../core/paths.js";
import { createAjv } from "./ajv.js";
import { readDataFile } from "./data-file.js";
import { readLeftOut } from "./left-out.js";
import { buildNotificationTypes } from "./notification-types.js";
import { buildRouteCatalogue } from "./route-catalogue.js";
import { createSchemaRegistry } from "./schema-registry.js";
import { buildTimeline } from "./timeline.js";
import type { Contract, ContractShapes, ProviderRule, ProviderState } from "./types.js";

export {
  type ConsumerRule,
  type ConsumerRuleId,
  type ConsumerRules,
  GATE_RULE_IDS,
  type GateRuleId,
  loadConsumerRules,
  NOTIFY_RULE_IDS,
  type NotifyRuleId,
  type Severity,
} from "./consumer-rules.js";
export { malformedDeprecationHeaders } from "./deprecation-headers.js";
export { type LeftOutOperation, leftOutAt } from "./left-out.js";
export * from "./paging/index.js";
export { compileTemplate } from "./path-template.js";
export { queryBoolean, queryValue, queryValues } from "./query.js";
export {
  FILES_RULE,
  judgeSchema,
  ownerOfSentence,
  PUBLIC_FORM_RULE,
  RESULT_ARRAY_RULE,
  SCHEMA_RULE,
} from "./schema-judge.js";
export { refusalRule } from "./status-judge.js";
export { expectedCounts } from "./timeline.js";
export { dayBefore, ruleStartOf, type TimelineDate, timelineBoundaries } from "./timeline-dates.js";
export type * from "./types.js";

/** Where the contract's files are read from; each may be replaced by the user's own copy. */
export interface ContractOptions {
  /**
   * A timeline file of your own, when the provider announces new dates.
   * @example { timelineFile: "./my-timeline.yaml" }
   */
  timelineFile?: string;
  /**
   * A notification types file of your own, when the provider publishes the identifiers of new types.
   * @example { notificationTypesFile: "./my-notification-types.yaml" }
   */
  notificationTypesFile?: string;
  /**
   * The folder holding `routes.yaml`, `schemas/` and the rest (default: the package's `contracts/`).
   * @example { dir: "./contracts" }
   */
  dir?: string;
  /**
   * Whose shape the schemas judge by where the seed and the provider's document disagree: `seed` (the
   * default) or `document` (each `NAME.document.schema.json` then stands in for `NAME`; docs/contracts.md,
   * "Known divergences").
   * @example { shapes: "document" }
   */
  shapes?: ContractShapes;
}

/**
 * Loads and checks the whole contract: route catalogue, JSON Schemas (one AJV instance), timeline,
 * notification types, provider states and rules. Any bad file throws an `AssopayError` naming the file
 * and line (exit code 2). Call it once at the boundary and pass the result along.
 *
 * @example
 * const contract = loadContract();
 * const route = contract.routes.byId("v5.form-items");
 * contract.timeline.datedRulesAt(route, "2025-06-15" as IsoDay).countMode; // "absent"
 */
export function loadContract(options: ContractOptions = {}): Contract {
  const dir = options.dir ?? contractsDir();
  const meta = join(dir, "meta");
  const ajv = createAjv();
  const schemas = createSchemaRegistry(ajv, join(dir, "schemas"), options.shapes);

  const read = (name: string, what: string, file = join(dir, `${name}.yaml`)) =>
    readDataFile(meta, name, file, what, ajv);

  const routesFile = join(dir, "routes.yaml");
  const routes = buildRouteCatalogue(
    read("routes", "route catalogue", routesFile).data as Parameters<typeof buildRouteCatalogue>[0],
    routesFile,
    schemas.names(),
  );

  const timeline = buildTimeline(read("timeline", "timeline", options.timelineFile));

  const notificationTypes = buildNotificationTypes(
    read("notification-types", "notification types", options.notificationTypesFile),
  );

  const providerStates = (read("provider-states", "provider states").data as { states: ProviderState[] })
    .states;
  const rules = (read("rules", "rules file").data as { rules: ProviderRule[] }).rules;

  const shapes = options.shapes ?? "seed";
  const leftOut = readLeftOut(dir);
  return Object.freeze({
    routes,
    rules,
    timeline,
    schemas,
    shapes,
    notificationTypes,
    providerStates,
    leftOut,
  });
}
