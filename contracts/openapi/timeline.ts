import type { IsoDay } from "../../core/dates.js";
import type { Route, Timeline, TimelineEntry } from "../types.js";

/** One dated change as the `x-assopay-timeline` extension lists it. */
export type TimelineMark = Pick<
  TimelineEntry,
  "id" | "date" | "effect" | "status" | "approximate" | "summary"
> & {
  inForce: boolean;
};

/** The extension value: each entry, with whether it holds at `at`. */
function timelineMarks(entries: readonly TimelineEntry[], at: IsoDay): TimelineMark[] {
  return entries.map((entry) => ({
    id: entry.id,
    date: entry.date,
    effect: entry.effect,
    status: entry.status,
    approximate: entry.approximate,
    inForce: at >= entry.date,
    summary: entry.summary,
  }));
}

/** Every dated change of the count deprecation (`affects: count-deprecation`), in the timeline's order. */
export function countMarks(timeline: Timeline, at: IsoDay): TimelineMark[] {
  return timelineMarks(
    timeline.entries.filter((e) => e.affects === "count-deprecation"),
    at,
  );
}

/**
 * What the timeline says about a route at `at`, as OpenAPI keeps it: `deprecated` on the operation from
 * the day the change that switches it off deprecates it (the day its `Deprecation` header names), and
 * the `x-assopay-*` extensions with the dates.
 */
export function operationTimeline(timeline: Timeline, route: Route, at: IsoDay): Record<string, unknown> {
  const rules = timeline.datedRulesAt(route, at);
  const out: Record<string, unknown> = {};
  const ending = timeline.entries.find(
    (e) => affects(timeline, route, e) && !timeline.datedRulesAt(route, e.date).served,
  );
  if (!rules.served || (ending?.deprecated !== undefined && at >= ending.deprecated)) out.deprecated = true;
  out["x-assopay-served"] = rules.served;
  if (route.countDeprecation) out["x-assopay-count-mode"] = rules.countMode;
  const marks = timelineMarks(
    timeline.entries.filter((entry) => affects(timeline, route, entry)),
    at,
  );
  if (marks.length > 0) out["x-assopay-timeline"] = marks;
  return out;
}

/** Whether an entry affects the route (from its own date on). */
function affects(timeline: Timeline, route: Route, entry: TimelineEntry): boolean {
  return timeline.datedRulesAt(route, entry.date).inForce.includes(entry);
}

/** The announcement headers: their key in `DeprecationHeaders`, their name, what each says. */
const ANNOUNCED = [
  [
    "deprecation",
    "Deprecation",
    "RFC 9745: the day the route, or part of its answer, is deprecated (an RFC 9651 Date).",
  ],
  [
    "sunset",
    "Sunset",
    "RFC 8594: the day the first change ahead of the route takes something away (an IMF-fixdate).",
  ],
  ["link", "Link", 'The documentation of each change ahead, with rel="deprecation" and rel="sunset".'],
] as const;

/**
 * The headers announcing the changes ahead of a route that every answer of it carries at `at` (as the
 * sandbox and replay send them), as OpenAPI response headers with their value at `at` as the example
 * (not a constant: the value changes with the day); none when none is ahead.
 */
export function announcedHeaders(timeline: Timeline, route: Route, at: IsoDay): Record<string, unknown> {
  const values = timeline.deprecationHeadersAt(route, at);
  return Object.fromEntries(
    ANNOUNCED.flatMap(([key, name, description]) => {
      const value = values[key];
      return value === undefined ? [] : [[name, { description, schema: { type: "string" }, example: value }]];
    }),
  );
}
