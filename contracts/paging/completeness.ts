import {
  type CrawlEnd,
  type CrawlLog,
  type CrawlPageLog,
  type EntryId,
  idsOfCrawl,
  orderOfCrawl,
} from "./crawl.js";

/** The rules a crawl that loses entries breaks, each on its own (contracts/rules.yaml). */
export const COMPLETENESS_RULES = [
  "pagination.complete",
  "pagination.empty-page-only-at-end",
  "pagination.token-until-end",
] as const;
export type CompletenessRule = (typeof COMPLETENESS_RULES)[number];

/** An entry of the losing crawl next to a missing one, and the page that held it. */
export interface Neighbour {
  readonly id: EntryId;
  readonly page: CrawlPageLog;
}

/** Entries one crawl lost: they existed before it started and still existed after it ended. */
export interface Loss {
  readonly rule: CompletenessRule;
  /** The crawl that lost them. */
  readonly crawl: CrawlLog;
  /** Their ids, in the witness's order. */
  readonly missing: readonly EntryId[];
  /**
   * A crawl that started after the losing one ended and has the first of them (or, where an oracle vouches
   * for them, any other crawl that has it); the oracle itself when no crawl has them (`shared`).
   */
  readonly witness: CrawlLog;
  /** Every crawl judged, when they all lack the entries and only an oracle vouches for them. */
  readonly shared?: readonly CrawlLog[];
  /** Around the first missing entry, in the witness's order: the losing crawl's entries either side. */
  readonly before: Neighbour | undefined;
  readonly after: Neighbour | undefined;
  /** The page of the losing crawl where it went wrong (the early end, or the page after the gap). */
  readonly offending: CrawlPageLog | undefined;
  readonly reason: string;
}

/** Entries a crawl lacks that no crawl before it had: new entries, or a loss to confirm by crawling again. */
export interface Suspect {
  readonly crawl: CrawlLog;
  readonly missing: readonly EntryId[];
}

/**
 * Ids known to be in a listing (`verify --oracle`): they vouch for each of their entries before and after
 * every crawl, so an entry every crawl lacks is a loss too.
 */
export interface Oracle {
  /** Where the ids come from, as reasons name it: the oracle file. */
  readonly source: string;
  readonly ids: readonly EntryId[];
}

export interface Completeness {
  /** Distinct entries over every crawl judged. */
  readonly entries: number;
  readonly losses: readonly Loss[];
  readonly suspects: readonly Suspect[];
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const verb = (n: number, one: string, many: string) => (n === 1 ? one : many);
const idList = (ids: readonly EntryId[]) =>
  ids.length <= 5 ? ids.join(", ") : `${ids.slice(0, 5).join(", ")} … (${ids.length} in all)`;

/** The rule a loss after a crawl's last entry breaks, by how the crawl ended. */
const EARLY_END: Readonly<Record<CrawlEnd, CompletenessRule>> = {
  "empty-page": "pagination.empty-page-only-at-end",
  "no-token": "pagination.token-until-end",
  cut: "pagination.complete",
};

function reasonOf(loss: Omit<Loss, "reason">): string {
  const { crawl, missing, witness, before, after } = loss;
  const first = missing[0];
  const what = `${plural(missing.length, "entry", "entries")} (${idList(missing)})`;
  const held = `${witness.namedBy ?? `${witness.label} has`} ${verb(missing.length, "it", "them")}, and ${verb(missing.length, "it was", "they were")} there before ${crawl.label} started`;
  const last = crawl.pages.at(-1);
  const entries = idsOfCrawl(crawl).size;
  switch (loss.rule) {
    case "pagination.complete": {
      if (loss.shared) {
        const labels = loss.shared.map((c) => c.label).join(", ");
        return `${what} ${verb(missing.length, "is", "are")} listed by ${witness.label} and in none of the ${loss.shared.length} crawls of the listing (${labels}): every crawl lost ${verb(missing.length, "it", "them")}`;
      }
      const where =
        before && after && before.page.index !== after.page.index
          ? `between page ${before.page.index} (ending with ${before.id}) and page ${after.page.index} (starting with ${after.id})`
          : before && after
            ? `inside page ${after.page.index}, between ${before.id} and ${after.id}`
            : `before page ${after?.page.index ?? 1}, whose first entry is ${after?.id}`;
      return `${crawl.label} lost ${what}: ${held}. Entry ${first} vanished ${where}`;
    }
    case "pagination.empty-page-only-at-end":
      return `${crawl.label} ended on an empty page (page ${last?.index}) after ${entries} entries, yet ${what} ${verb(missing.length, "comes", "come")} after its last entry${before ? ` ${before.id}` : ""}: ${held}. An empty page is only legal at the end`;
    case "pagination.token-until-end":
      return `${crawl.label}'s page ${last?.index} held entries but no token, so a client stops there, yet ${what} ${verb(missing.length, "comes", "come")} after its last entry${before ? ` ${before.id}` : ""}: ${held}. A page without a token is only legal when nothing is left`;
  }
}

/** For each position of `order`, the nearest id before and after it that `own` holds. */
function neighboursIn(order: readonly EntryId[], own: ReadonlySet<EntryId>) {
  const prev = new Array<EntryId | undefined>(order.length);
  const next = new Array<EntryId | undefined>(order.length);
  let last: EntryId | undefined;
  for (let i = 0; i < order.length; i++) {
    prev[i] = last;
    const id = order[i] as EntryId;
    if (own.has(id)) last = id;
  }
  last = undefined;
  for (let i = order.length - 1; i >= 0; i--) {
    next[i] = last;
    const id = order[i] as EntryId;
    if (own.has(id)) last = id;
  }
  return { prev, next };
}

/**
 * A part of the listing's order, read from a crawl of a part of it (a date window): the losing crawl's
 * own entries with `missing` put in by date, newest first (oldest first when the crawl ran so).
 */
function orderByDate(crawl: CrawlLog, witness: CrawlLog, missing: readonly EntryId[]): EntryId[] {
  const dated = new Map<EntryId, number>();
  for (const page of [...crawl.pages, ...witness.pages]) {
    for (const [i, id] of page.ids.entries()) dated.set(id, page.dates?.[i] ?? Number.NaN);
  }
  const sign = crawl.ascending ? 1 : -1;
  const entries = [...orderOfCrawl(crawl), ...missing];
  const at = (id: EntryId) => dated.get(id) ?? Number.NaN;
  const known = entries.filter((id) => !Number.isNaN(at(id)));
  return known.sort((a, b) => sign * (at(a) - at(b)));
}

/** The losses of one crawl, given the ids confirmed missing and the crawls after it. */
function lossesOf(
  crawl: CrawlLog,
  own: Set<EntryId>,
  confirmed: EntryId[],
  after: readonly CrawlLog[],
  sets: Map<CrawlLog, Set<EntryId>>,
  partial: ReadonlySet<CrawlLog>,
): Loss[] {
  const firstId = confirmed[0];
  const holds = (c: CrawlLog) => firstId !== undefined && sets.get(c)?.has(firstId) === true;
  // A crawl of the whole listing shows where the entry belongs; a date window's crawl, only by its date.
  const witness = after.find((c) => holds(c) && !partial.has(c)) ?? after.find(holds);
  if (!witness || firstId === undefined) return [];
  // The witness's order, read in the losing crawl's direction (one may run oldest first).
  const order = partial.has(witness) ? orderByDate(crawl, witness, confirmed) : orderOfCrawl(witness);
  if (!partial.has(witness) && Boolean(witness.ascending) !== Boolean(crawl.ascending)) order.reverse();
  const position = new Map(order.map((id, i) => [id, i] as const));
  const { prev, next } = neighboursIn(order, own);
  // The page of the losing crawl that first held each of its entries.
  const pages = new Map<EntryId, CrawlPageLog>();
  for (const page of crawl.pages) for (const id of page.ids) if (!pages.has(id)) pages.set(id, page);
  const neighbour = (id: EntryId | undefined): Neighbour | undefined => {
    const page = id === undefined ? undefined : pages.get(id);
    return page && id !== undefined ? { id, page } : undefined;
  };
  const groups = new Map<CompletenessRule, { ids: EntryId[]; before?: Neighbour; after?: Neighbour }>();
  const inWitness = confirmed
    .filter((id) => position.has(id))
    .sort((a, b) => (position.get(a) ?? 0) - (position.get(b) ?? 0));
  // A crawl that loses entries between its pages loses its last ones the same way: one rule for all.
  const between = inWitness.some((id) => next[position.get(id) as number] !== undefined);
  for (const id of inWitness) {
    const at = position.get(id) as number;
    const after = neighbour(next[at]);
    const rule = between || after ? "pagination.complete" : EARLY_END[crawl.end];
    const group = groups.get(rule);
    if (group) group.ids.push(id);
    else groups.set(rule, { ids: [id], before: neighbour(prev[at]), after });
  }
  return [...groups].map(([rule, group]) => {
    const offending = rule === "pagination.complete" ? group.after?.page : crawl.pages.at(-1);
    const loss = {
      rule,
      crawl,
      missing: group.ids,
      witness,
      before: group.before,
      after: group.after,
      offending,
    };
    return { ...loss, reason: reasonOf(loss) };
  });
}

/** The loss of the oracle's entries that no crawl has, filed on the first crawl judged. */
function sharedLoss(judged: readonly CrawlLog[], missing: readonly EntryId[], oracle: Oracle): Loss {
  const witness: CrawlLog = {
    label: `the oracle ${oracle.source}`,
    pageSize: undefined,
    startedAt: Number.NEGATIVE_INFINITY,
    endedAt: Number.NEGATIVE_INFINITY,
    pages: [],
    end: "empty-page",
  };
  const crawl = judged[0] as CrawlLog;
  const loss = {
    rule: "pagination.complete" as const,
    crawl,
    missing,
    witness,
    shared: judged,
    before: undefined,
    after: undefined,
    offending: crawl.pages.at(-1),
  };
  return { ...loss, reason: reasonOf(loss) };
}

/**
 * Judges several crawls of one listing as a whole. An entry a crawl lacks is a loss only when a crawl
 * that ended before it started had the entry and a crawl that started after it ended still has it: on a
 * live listing, entries that appear between crawls are new, not lost. Crawls cut by another rule's
 * violation, and crawls that kept no log, are left out. Each loss names its rule: entries gone from the middle (`pagination.complete`),
 * an empty page before the end, or a page without a token before the end.
 *
 * `witnesses` are crawls of a part of the listing (a date window): their entries vouch, before and after,
 * for entries the whole listing's crawls lack, but they are not judged themselves, since they need not
 * hold every entry. An `oracle`'s ids vouch for their entries before and after every crawl: a crawl that
 * lacks one lost it, and entries no crawl has are one loss every crawl shares (`pagination.complete`).
 *
 * @example
 * const { losses, suspects } = judgeCompleteness([byDefault, bySeven, byHundred], [lastWeek]);
 * // suspects: crawl again at the suspect's page size, then judge every crawl once more.
 */
export function judgeCompleteness(
  crawls: readonly CrawlLog[],
  witnesses: readonly CrawlLog[] = [],
  oracle?: Oracle,
): Completeness {
  const usable = (c: CrawlLog) => c.end !== "cut" && c.unlogged !== true;
  const judged = crawls.filter(usable);
  const parts = new Set(witnesses.filter(usable));
  const all = [...judged, ...parts];
  const sets = new Map(all.map((c) => [c, idsOfCrawl(c)] as const));
  const union = new Set<EntryId>();
  for (const ids of sets.values()) for (const id of ids) union.add(id);
  const known = new Set(oracle?.ids);
  // The oracle's entries no crawl has: lost by every crawl alike, one loss below.
  const unseen = new Set([...known].filter((id) => !union.has(id)));
  for (const id of known) union.add(id);
  const losses: Loss[] = [];
  const suspects: Suspect[] = [];
  for (const crawl of judged) {
    const own = sets.get(crawl) as Set<EntryId>;
    if (own.size === union.size) continue;
    const earlier = all.filter((c) => c !== crawl && c.endedAt <= crawl.startedAt);
    const later = all
      .filter((c) => c !== crawl && c.startedAt >= crawl.endedAt)
      .sort((a, b) => a.startedAt - b.startedAt);
    const confirmed: EntryId[] = [];
    const unconfirmed: EntryId[] = [];
    for (const id of union) {
      if (own.has(id) || unseen.has(id)) continue;
      const before = known.has(id) || earlier.some((c) => sets.get(c)?.has(id));
      const after = known.has(id) || later.some((c) => sets.get(c)?.has(id));
      (before && after ? confirmed : unconfirmed).push(id);
    }
    // Where the oracle vouches, an earlier crawl shows the entry's place as well as a later one.
    const shown = [...later, ...earlier];
    if (confirmed.length > 0) losses.push(...lossesOf(crawl, own, confirmed, shown, sets, parts));
    if (unconfirmed.length > 0) suspects.push({ crawl, missing: unconfirmed });
  }
  const [first] = judged;
  if (oracle && first && unseen.size > 0) losses.push(sharedLoss(judged, [...unseen], oracle));
  return { entries: union.size, losses: oneDefect(losses), suspects };
}

/**
 * Losses of crawls of one listing (or of its forms) on one rule where any is a gap between pages: a
 * provider that loses entries between pages loses the last ones of another crawl the same way (a page of
 * one entry after a full one, at a boundary size, is one such gap), one defect on `pagination.complete`.
 */
export function oneDefect(losses: readonly Loss[]): Loss[] {
  const gaps = losses.some((loss) => loss.rule === "pagination.complete" && !loss.shared);
  return gaps ? losses.map((loss) => ({ ...loss, rule: "pagination.complete" })) : [...losses];
}
