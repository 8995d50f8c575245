export * from "./completeness.js";
export * from "./containment.js";
export * from "./counts.js";
// crawl.ts's `valueAt` is the page reader's, not the package's.
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
export * from "./order.js";
export * from "./page.js";
export * from "./page-judge.js";
export * from "./sameness.js";
export * from "./window.js";
