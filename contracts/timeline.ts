import { dayStart, type IsoDay, isIsoDay } from "../core/dates.js";
import type { YamlFile } from "../core/yaml-file.js";
import { dataError } from "./data-file.js";
import type {
  CountMode,
  DatedRules,
  DeprecationHeaders,
  ExpectedCounts,
  Route,
  Timeline,
  TimelineEffect,
  TimelineEntry,
} from "./types.js";

interface RawEntry extends Omit<TimelineEntry, "approximate" | "date" | "deprecated"> {
  date: string;
  approximate?: boolean;
  deprecated?: string;
}

const NOTHING_AHEAD: DeprecationHeaders = Object.freeze({});

function affectsRoute(entry: TimelineEntry, route: Route): boolean {
  switch (entry.affects) {
    case "count-deprecation":
      return route.countDeprecation;
    case "v3":
      return route.version === "v3";
    case "associations":
      return route.id === "v5.checkout-create";
  }
}

/** Builds the timeline from its validated data; checks order and uniqueness, which a meta-schema cannot. */
export function buildTimeline({ data, file }: YamlFile): Timeline {
  const raw = data as { entries: RawEntry[] };
  // The data was read without its lines: each mistake names the file.
  const fail = (message: string, hint: string) => dataError(file, undefined, message, hint);
  const deprecatedDay = (e: RawEntry): IsoDay | undefined => {
    const named = e.deprecated;
    if (named === undefined) return undefined;
    const day = isIsoDay(named) ? named : raw.entries.find((other) => other.id === named)?.date;
    if (day === undefined || day > e.date) {
      throw fail(
        `timeline entry "${e.id}": deprecated "${named}" is ${day === undefined ? "neither a day nor an entry's id" : `after the change itself (${e.date})`}`,
        "give the day it was deprecated (YYYY-MM-DD, not after the entry's date) or the id of the entry that deprecated it",
      );
    }
    return day as IsoDay;
  };
  const entries: TimelineEntry[] = raw.entries.map((e) =>
    Object.freeze({
      ...e,
      date: e.date as IsoDay,
      approximate: e.approximate ?? false,
      deprecated: deprecatedDay(e),
    }),
  );
  const effects = new Set<TimelineEffect>();
  for (const entry of entries) {
    if (effects.has(entry.effect)) {
      throw fail(
        `timeline effect "${entry.effect}" appears twice`,
        "each dated change appears once; edit its date instead of adding a second entry",
      );
    }
    effects.add(entry.effect);
  }
  const order: TimelineEffect[] = [
    "withcount-introduced",
    "withcount-default-false",
    "count-fields-removed",
    "withcount-left-document",
  ];
  const dated = order
    .map((effect) => entries.find((e) => e.effect === effect))
    .filter((e) => e !== undefined);
  for (let i = 1; i < dated.length; i++) {
    const before = dated[i - 1] as TimelineEntry;
    const after = dated[i] as TimelineEntry;
    if (after.date < before.date) {
      throw fail(
        `timeline entry "${after.id}" (${after.date}) comes before "${before.id}" (${before.date})`,
        "the count deprecation steps must be in order: introduced, default false, removed, left the document",
      );
    }
  }
  const frozen = Object.freeze(entries);
  const entry = (effect: TimelineEffect) => frozen.find((e) => e.effect === effect);
  const inForce = (effect: TimelineEffect, date: IsoDay) => {
    const found = entry(effect);
    return found !== undefined && date >= found.date;
  };
  const countMode = (route: Route, date: IsoDay): CountMode => {
    if (!route.countDeprecation) return "not-applicable";
    if (inForce("count-fields-removed", date)) return "absent";
    if (inForce("withcount-default-false", date)) return "default-false";
    if (inForce("withcount-introduced", date)) return "default-true";
    return "always-real";
  };
  const datedRulesAt = (route: Route, date: IsoDay): DatedRules => {
    const mode = countMode(route, date);
    return Object.freeze({
      date,
      route,
      served: !(route.version === "v3" && inForce("v3-switch-off", date)),
      withCountParam: mode === "default-true" || mode === "default-false",
      countMode: mode,
      newAssociationsNeedVerification: inForce("new-association-verification", date),
      inForce: frozen.filter((e) => date >= e.date && affectsRoute(e, route)),
    });
  };
  const announced = frozen.filter((e) => e.deprecated !== undefined && e.link !== undefined);
  const deprecationHeadersAt = (route: Route, date: IsoDay): DeprecationHeaders => {
    const ahead = announced.filter((e) => date < e.date && affectsRoute(e, route));
    if (ahead.length === 0) return NOTHING_AHEAD;
    const first = (days: IsoDay[]) => Math.min(...days.map((day) => dayStart(day).getTime()));
    // The resource is deprecated from its earliest deprecation, and loses something at the earliest change.
    return Object.freeze({
      deprecation: `@${first(ahead.map((e) => e.deprecated as IsoDay)) / 1000}`,
      sunset: new Date(first(ahead.map((e) => e.date))).toUTCString(),
      link: ahead.flatMap((e) => [`<${e.link}>; rel="deprecation"`, `<${e.link}>; rel="sunset"`]).join(", "),
    });
  };
  return {
    entries: frozen,
    source: file,
    deprecationHeadersAt,
    entry,
    inForce,
    datedRulesAt,
    rulesAt: datedRulesAt,
  };
}

/**
 * What counts one response should carry, given the rules at its date and the `withCount` value the
 * request sent (`undefined` when absent).
 */
export function expectedCounts(rules: DatedRules, withCount: boolean | undefined): ExpectedCounts {
  switch (rules.countMode) {
    case "not-applicable":
      return "not-applicable";
    case "always-real":
      return "real";
    case "default-true":
      return withCount === false ? "minus-one" : "real";
    case "default-false":
      return withCount === true ? "real" : "minus-one";
    case "absent":
      return "absent";
  }
}
