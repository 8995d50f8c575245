import { queryBoolean } from "../../contracts/index.js";
import type { RecordedExchange } from "../exchange.js";
import { rawQueryOf } from "../raw-query.js";
import type { FindingCollector } from "./findings.js";
import type { JudgeContext } from "./index.js";

/**
 * Judges the dated changes (seed Versioning 2 and 4): no v3 route on or after its switch-off (before
 * it, v3 use is advice). `withCount=true` is legal at every date: once the counts are removed it has
 * no effect, and before that it belongs on the first page of a crawl; both are advice, never failures.
 */
export function judgeDated(
  exchanges: readonly RecordedExchange[],
  collector: FindingCollector,
  { contract, at }: JudgeContext,
): void {
  const switchOff = contract.timeline.entry("v3-switch-off")?.date;
  const removal = contract.timeline.entry("count-fields-removed")?.date;
  for (const exchange of exchanges) {
    if (exchange.route === undefined || exchange.route.id === "token") continue;
    const route = contract.routes.byId(exchange.route.id);
    const rules = contract.timeline.datedRulesAt(route, at);
    if (route.version === "v3") {
      if (!rules.served) {
        collector.add("versions.no-v3-after-switch-off", "v3", {
          message: `called the v3 route ${route.method} ${route.path}, switched off since ${switchOff ?? "its cutoff"}`,
          exchange,
        });
      } else {
        collector.add("versions.no-v3-after-switch-off", "v3-advice", {
          message: `called the obsolete v3 route ${route.method} ${route.path}: it is switched off on ${switchOff ?? "its cutoff"}`,
          exchange,
          severity: "advice",
        });
      }
    }
    if (!route.countDeprecation) continue;
    const withCount = queryBoolean(new URLSearchParams(rawQueryOf(exchange.rawUrl)), "withCount");
    if (withCount !== true) continue;
    if (rules.countMode === "absent") {
      collector.add("counts.no-withcount-after-removal", "withcount", {
        message: `sent withCount=true after totalCount and totalPages were removed (${removal ?? "removal date"}): legal, but it has no effect`,
        exchange,
        details: [
          "the counts no longer come back: nothing may rely on them; count the entries collected instead",
        ],
        severity: "advice",
      });
    } else if (exchange.token !== undefined) {
      collector.add("counts.withcount-when-needed", "withcount-pages", {
        message: "sent withCount=true on a continuation page: the count is the same for the whole crawl",
        exchange,
      });
    }
  }
}
