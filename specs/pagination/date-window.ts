import {
  type DateWindow,
  judgeWindow,
  type Route,
  WINDOW_EDGES,
  type WindowEdges,
  windowSpan,
} from "../../contracts/index.js";
import { isoInstant } from "../../core/dates.js";
import type { CheckContext } from "../runner/context.js";
import { describeStop, endedLegally } from "../runner/crawler.js";
import type { Evidence } from "../runner/types.js";
import { failOn, passOn, type SubjectFinding, skipOn, specCheck } from "../runner/verdicts.js";
import { completenessOf, crawlPicture, pageExchange } from "./completeness.js";
import { takesWindow, windowCrawl } from "./crawl-plan.js";
import { idList, judgeListings } from "./listing-findings.js";

type Judged = Extract<Awaited<ReturnType<typeof completenessOf>>, { kind: "judged" }>;

/**
 * One listing's windows (`WINDOW_EDGES`: ends on two entries' dates, then 1 ms past two, then `from`
 * alone, then `from` after the newest entry): each, crawled to its end, must hold the entries dated in
 * it and no other. The first that fails is the verdict.
 */
async function judgeListing(ctx: CheckContext, route: Route): Promise<SubjectFinding> {
  const outcome = await completenessOf(ctx, route);
  if (outcome.kind === "skip") return skipOn(route.id, outcome.reason);
  const notes: string[] = [];
  for (const edges of WINDOW_EDGES) {
    const finding = await judgeWindowOf(ctx, route, outcome, edges);
    // A later window that cannot be asked (it needs one entry more) or is skipped leaves the others'.
    if (finding.verdict === "skip" && edges !== "on-entries") continue;
    if (finding.verdict !== "pass") return finding;
    notes.push(finding.reason ?? "");
  }
  return passOn(route.id, notes.join("; "));
}

async function judgeWindowOf(
  ctx: CheckContext,
  route: Route,
  outcome: Judged,
  edges: WindowEdges,
): Promise<SubjectFinding> {
  const byDefault = outcome.logs.find((log) => !log.ascending);
  const asked = byDefault && (await windowCrawl(ctx, route, byDefault, undefined, edges));
  if (!asked) {
    return skipOn(
      route.id,
      "fewer than three entries dated with a UTC offset, or entries sharing a millisecond, at the head of the listing",
    );
  }
  const { window, crawl } = asked;
  // A sync since a date (either window without `to`) holds every entry added since: where the listing
  // grew past what the default crawl held, the crawl's page cap, not the provider, may have cut it.
  const before = byDefault?.pages.reduce((sum, page) => sum + page.ids.length, 0) ?? 0;
  if (!Number.isFinite(window.to) && !endedLegally(crawl.stop) && crawl.entries > before) {
    return skipOn(
      route.id,
      `a sync since ${isoInstant(window.from)} held ${crawl.entries} entries or more where the listing had ${before}: it grew while verify ran, past what the crawl may read (${describeStop(crawl)})`,
    );
  }
  if (!endedLegally(crawl.stop)) {
    const reason = `the crawl of the date window ${windowSpan(window)} did not end cleanly, though the default one did: ${describeStop(crawl)}${window.edges === "nothing-new" ? ". The window holds no entry: its first page must be the empty end, as a sync since the last run meets when nothing came since" : ""}`;
    return failOn(route.id, reason);
  }
  const whole = judgeWindow(window, crawl.log);
  // A listing whose crawls of the whole lose entries (at page boundaries, by an early end) loses them
  // from the window's pages too: that is the completeness rules' to report, not this one's.
  const lost = outcome.judged.losses[0];
  if (lost && whole.missing.length > 0 && whole.outside.length === 0) {
    return skipOn(
      route.id,
      `the window's crawl lacks ${idList(whole.missing)}, but the listing loses entries in every kind of crawl (${lost.rule}), which explains it`,
    );
  }
  const judged = lost ? { ...whole, missing: [] } : whole;
  const first = crawl.log.pages[0];
  if ((judged.missing.length === 0 && judged.outside.length === 0) || !first) {
    return passOn(
      route.id,
      `${route.id}: ${windowSpan(window)}, the ${window.expected.length} entries dated in it`,
    );
  }
  return windowFailure(route, window, crawl.log, judged);
}

/** What a window's failure says of its ends, by where they fall. */
const ENDS: Readonly<Record<WindowEdges, string>> = {
  "on-entries": "Its ends are two listed entries' dates",
  "past-entries":
    "Its ends are 1 ms after two listed entries' dates (an end read early, its fraction of a second cut off or its offset misread, loses the one or serves the other)",
  "since-entry": "It starts on a listed entry's date and asks no to, as a sync since the last run does",
  "nothing-new":
    "It starts 1 ms after the newest listed entry and asks no to, as a sync since the last run does when nothing came since",
};

function windowFailure(
  route: Route,
  window: DateWindow,
  log: Parameters<typeof crawlPicture>[0],
  judged: ReturnType<typeof judgeWindow>,
): SubjectFinding {
  const span = windowSpan(window);
  const parts = [
    ...(judged.missing.length > 0
      ? [
          `${judged.missing.length} of the ${window.expected.length} entries dated in it missing (${idList(judged.missing)})`,
        ]
      : []),
    ...(judged.outside.length > 0
      ? [
          `${judged.outside.length} dated outside it served (${judged.outside
            .slice(0, 3)
            .map((e) => `${e.id} at ${isoInstant(e.date)}`)
            .join(", ")})`,
        ]
      : []),
  ];
  // The entry at an end is the window's edge; the others sit inside it, where only a page boundary of
  // the window's crawl can lose them.
  const inside = judged.missing.filter((id) => id !== window.edge);
  const atEnds = judged.outside.length > 0 || inside.length < judged.missing.length;
  const ends = ENDS[window.edges];
  const why = [
    ...(atEnds ? [`${ends}, where a client syncing by date loses or repeats entries`] : []),
    ...(inside.length > 0
      ? [
          `${idList(inside)} ${inside.length === 1 ? "is" : "are"} dated inside it and went missing between the pages of its crawl (pageSize ${log.pageSize ?? "?"}), as from a client paging through a sync by date`,
        ]
      : []),
  ];
  const reason = `the window ${span}: ${parts.join("; ")}. ${why.join(". ")}`;
  const page = judged.outside[0]?.page ?? log.pages[0];
  const evidence: Evidence = {
    ...pageExchange(page),
    diagnostics: [
      reason,
      window.expected.length === 0
        ? "expected: no entry (from is 1 ms after the default crawl's newest entry)"
        : `expected, newest first: ${idList(window.expected)} (the default crawl's entries ${window.edges === "since-entry" ? `1 to ${window.expected.length}` : `2 to ${window.expected.length + 1}`})`,
      ...(window.edges === "past-entries"
        ? [
            `from is 1 ms after the default crawl's entry ${window.expected.length + 2}, to 1 ms after its entry 2`,
          ]
        : []),
    ],
    crawl: crawlPicture(
      log,
      page,
      `the ${window.expected.length} entries dated in the window`,
      parts.join("; "),
    ),
  };
  return failOn(route.id, reason, evidence);
}

/**
 * The date window of a listing (the provider's document: `from` is the first date, `to` the end date,
 * exclusive): a crawl asked with both holds exactly the entries dated from `from` to just before `to`.
 * The first window's ends are the dates of two entries of the default crawl, so a provider that takes
 * `from` as exclusive (an integrator syncing from its last entry's date loses the entries of that
 * instant), `to` as inclusive, or ignores the window is caught; the second's fall 1 ms after two, so one
 * that reads an end early (cut to the second, an offset misread) is caught too; the third asks `from`
 * alone, as a sync since the last run does; the fourth asks it 1 ms after the newest entry, a sync when
 * nothing came since, whose first page must be the empty end (not an error, nor entries before `from`).
 */
export const dateWindowCheck = specCheck({
  id: "pagination/date-window",
  rule: "pagination.date-window",
  title: "from and to select the entries dated from `from` (included) to `to` (excluded)",
  run: (ctx) =>
    judgeListings(ctx, judgeListing, "listings whose date windows hold their entries", takesWindow),
});
