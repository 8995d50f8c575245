export {
  COMPLETENESS_RULES,
  type Completeness,
  type CompletenessRule,
  judgeCompleteness,
  type Loss,
  type Neighbour,
  type Oracle,
  oneDefect,
  type Suspect,
} from "./completeness.js";
export {
  type Containment,
  type ForeignEntries,
  foreignEntries,
  judgeContainment,
  logsNaming,
  type Omission,
  type Owner,
} from "./containment.js";
export {
  countRule,
  countTimeline,
  countTimelineIds,
  type DatedChange,
  datedCountChange,
  describeExpected,
  isCountSentence,
  totalsDisagree,
} from "./counts.js";
export {
  type CrawlEnd,
  type CrawlLog,
  type CrawlPageLog,
  type EntryId,
  entryKind,
  type Held,
  heldBy,
  idsOfCrawl,
  type NamedOnPage,
  namedOnPage,
  namedWitness,
  orderOfCrawl,
  servedKinds,
} from "./crawl.js";
export {
  type DateOrder,
  judgeDateOrder,
  type OrderBreak,
  type PlacedEntry,
  type SortDirection,
} from "./order.js";
export {
  countsOf,
  entryDate,
  entryDigest,
  entryForm,
  entryId,
  entryOrganization,
  type ListingPage,
  type NotAPage,
  type PageCounts,
  type PageRead,
  paginationOf,
  readPage,
  readRoutePage,
} from "./page.js";
export { judgePage, type PageBreach, type PageFinding, type PageSoFar, pageSizeLimit } from "./page-judge.js";
export { type Discrepancy, judgeSameness, type Served } from "./sameness.js";
export {
  type DateWindow,
  judgeWindow,
  type OutsideEntry,
  WINDOW_EDGES,
  type WindowEdges,
  type WindowJudgement,
  windowOf,
  windowSpan,
} from "./window.js";
