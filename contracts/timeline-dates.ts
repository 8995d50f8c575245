import { dayStart, type IsoDay, todayIso } from "../core/dates.js";
import type { Timeline, TimelineEffect } from "./types.js";

/** A date a timeline run judges at, and why it is there. */
export interface TimelineDate {
  readonly day: IsoDay;
  /** `day before v3-switch-off`, `v3-switch-off`, `today`, or `given` for a date of the user's list. */
  readonly label: string;
}

/** The day before a day. */
export function dayBefore(day: IsoDay): IsoDay {
  return todayIso(new Date(dayStart(day).getTime() - 86_400_000));
}

/**
 * Every boundary of the timeline: the day before and the day of each dated change, plus today, in date
 * order, each day once (a day that is two things says both).
 *
 * @example
 * timelineBoundaries(contract.timeline, "2026-02-01" as IsoDay)[0]; // { day: "2024-12-15", label: "day before withcount-introduced" }
 */
export function timelineBoundaries(timeline: Timeline, today: IsoDay = todayIso()): TimelineDate[] {
  const labels = new Map<IsoDay, string[]>();
  const add = (day: IsoDay, label: string) => labels.set(day, [...(labels.get(day) ?? []), label]);
  for (const entry of timeline.entries) {
    add(dayBefore(entry.date), `day before ${entry.id}`);
    add(entry.date, entry.id);
  }
  add(today, "today");
  return [...labels.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([day, names]) => Object.freeze({ day, label: names.join(", ") }));
}

/**
 * When a rule comes into force, from its `inForceFrom` effect and the timeline: the entry's day and id,
 * or undefined for a rule in force at every date (or whose effect the timeline lacks).
 */
export function ruleStartOf(
  timeline: Timeline,
  rules: readonly { readonly id: string; readonly inForceFrom?: TimelineEffect }[],
): (rule: string) => { day: IsoDay; entry: string } | undefined {
  return (rule) => {
    const effect = rules.find((r) => r.id === rule)?.inForceFrom;
    const entry = effect === undefined ? undefined : timeline.entry(effect);
    return entry ? { day: entry.date, entry: entry.id } : undefined;
  };
}
