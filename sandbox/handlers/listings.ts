import type { Route } from "../../contracts/index.js";
import { addPaidOrder } from "../checkout.js";
import { apiViews, organizationOf, type RouteHandler, type SandboxCore } from "../core.js";
import type { FormDef, OrderRecord, Organization } from "../data/model.js";
import {
  createDatedSequence,
  type DateOf,
  orderDate,
  paymentDate,
  type Sequence,
  START,
} from "../data/sequence.js";
import { listEntryView, orderView, paymentView, type ViewContext } from "../data/views.js";
import type { FaultName } from "../faults.js";
import { orNotFound, sendErrors } from "../http.js";
import { listingScope, type PageRequest, phantomOrders, readQuery, sendPage } from "../listing.js";

/** The view of a listing's entries, by what they are: the contract's `entrySchema`. */
const ENTRY_VIEWS = {
  "list-entry": listEntryView,
  order: orderView,
  payment: paymentView,
} satisfies Record<string, (views: ViewContext, record: OrderRecord) => Record<string, unknown>>;
type EntryKind = keyof typeof ENTRY_VIEWS;

/** The organization the `other-organization-entries` fault names in the entries it serves as another's. */
const OTHER_ORGANIZATION = "club-voisin";

/** The `other-organization-entries` fault: a copy of an entry naming another organization (or its order). */
function otherOrganization(entry: Record<string, unknown>): Record<string, unknown> {
  const order = entry.order;
  if (order !== null && typeof order === "object" && !Array.isArray(order)) {
    return { ...entry, order: { ...order, organizationSlug: OTHER_ORGANIZATION } };
  }
  return { ...entry, organizationSlug: OTHER_ORGANIZATION };
}

/** The `later-pages-differ` fault: a copy of an entry, its amount (or an order's `total`) a cent more. */
function staleAmount(entry: Record<string, unknown>): Record<string, unknown> {
  const amount = entry.amount;
  if (typeof amount === "number") return { ...entry, amount: amount + 1 };
  if (amount !== null && typeof amount === "object" && !Array.isArray(amount)) {
    const order = amount as Record<string, unknown>;
    if (typeof order.total === "number") return { ...entry, amount: { ...order, total: order.total + 1 } };
  }
  return entry;
}

/**
 * A page's entries as a fault serves them: `later-pages-differ` past the first page, and
 * `other-organization-entries` one order in 13 of the organization's listings (not its forms').
 */
function faulted(
  fault: FaultName | undefined,
  fresh: Record<string, unknown>[],
  records: readonly OrderRecord[],
  page: { pageIndex: number; ofForm: boolean },
): Record<string, unknown>[] {
  if (fault === "later-pages-differ" && page.pageIndex > 1) return fresh.map(staleAmount);
  if (fault === "other-organization-entries" && !page.ofForm) {
    return fresh.map((entry, i) => ((records[i]?.id ?? 1) % 13 === 0 ? otherOrganization(entry) : entry));
  }
  return fresh;
}

/**
 * The orders a fault leaves out of a listing: one in 13 of an organization's listings
 * (`organization-omits-entries`) or of a form's (`form-omits-entries`), one in 7 of the orders listings
 * (`orders-listing-omits-orders`) or of the items listings (`items-listing-omits-items`); `undefined`
 * when it leaves out none.
 */
function omissionOf(
  core: SandboxCore,
  form: FormDef | undefined,
  kind: EntryKind | undefined,
): ((record: OrderRecord) => boolean) | undefined {
  switch (core.fault) {
    case "organization-omits-entries":
      return form === undefined ? (record) => record.id % 13 === 0 : undefined;
    case "form-omits-entries":
      return form !== undefined ? (record) => record.id % 13 === 0 : undefined;
    case "orders-listing-omits-orders":
      return kind === "order" ? (record) => record.id % 7 === 0 : undefined;
    case "items-listing-omits-items":
      return kind === "list-entry" ? (record) => record.id % 7 === 0 : undefined;
    default:
      return undefined;
  }
}

/**
 * What a listing serves from `sequence`: all of it, but under the faults of `omissionOf`, which leave out
 * some orders at every page size and in either order and count only what they serve (the other listings
 * still have them, or name them): the orders kept, each a run of its own, in the listing's order again.
 */
function servedSequence(
  core: SandboxCore,
  form: FormDef | undefined,
  sequence: Sequence<OrderRecord>,
  kind: EntryKind,
  dateOf: DateOf,
): Sequence<OrderRecord> {
  const omitted = omissionOf(core, form, kind);
  if (!omitted) return sequence;
  const kept = sequence.page(START.asc, "asc", sequence.total).filter((record) => !omitted(record));
  return createDatedSequence(
    kept.map((record) => ({ firstId: record.id, count: 1, at: () => record })),
    dateOf,
  );
}

/** The `growing` variant: one more paid order on the form, dated now, before the page is served. */
function growOne(core: SandboxCore, organization: Organization, form: FormDef): void {
  const model = core.store.sequence(organization.slug, form).page(0, "asc", 1)[0];
  if (!model) return;
  addPaidOrder(core, {
    organization,
    form,
    payer: model.payer,
    itemName: model.itemName,
    itemType: model.itemType,
    amount: model.initialAmount,
    initialAmount: model.initialAmount,
  });
}

/**
 * Every paginated route of the catalogue (v5 and v3, organization or form, items, orders or payments):
 * the route's pagination spec names the result array and the entry schema.
 */
export function listingHandler(route: Route): RouteHandler {
  return (core, ex, call) => {
    const schema = route.pagination?.entrySchema;
    const kind = Object.keys(ENTRY_VIEWS).find((k) => k === schema) as EntryKind | undefined;
    if (!kind) {
      sendErrors(ex, 501, "NotImplemented", `the sandbox cannot list entries of schema ${schema}`);
      return;
    }
    const { organizationSlug, formType, formSlug } = call.params;
    const organization = organizationOf(core, ex, organizationSlug);
    if (!organization) return;
    let form: FormDef | undefined;
    if (formType !== undefined && formSlug !== undefined) {
      form = orNotFound(
        ex,
        core.store.form(organization.slug, formType, formSlug),
        `No form ${formType}/${formSlug} in organization "${organization.slug}".`,
      );
      if (!form) return;
    }
    const query = readQuery(core, ex, call.rules);
    if (!query) return;
    const listed = form ?? core.store.mainForm;
    const from = query.dates.get("from");
    const to = query.dates.get("to");
    const scope = listingScope(route, organization.slug, form, { from, to });
    const token = query.strings.get("continuationToken");
    const decoded = core.growing && token !== undefined ? core.tokens.decode(scope, token) : undefined;
    // A live listing takes an order with each fresh first page, whatever the query, and once within each
    // crawl of a form, at its third page. Once, not every third page asked: counted over all the pages
    // asked, the growth follows the client's pace, and crawls at the listing's tail (oldest first) would
    // grow it for one another at every page and never reach the empty page that ends a crawl (seed,
    // rule 3); the real service's crawls end, and new entries wait for the token kept at the end.
    if (
      core.growing &&
      (token === undefined || (form !== undefined && decoded?.ok && decoded.cursor.pageIndex === 3))
    ) {
      growOne(core, organization, listed);
    }
    const dateOf = kind === "payment" ? paymentDate : orderDate;
    // `from` is inclusive; just after it under the `window-from-exclusive` fault.
    const fromMs = from !== undefined && core.fault === "window-from-exclusive" ? from + 1 : from;
    const listing = core.store.sequence(organization.slug, form, fromMs, to, dateOf);
    const request: PageRequest = {
      scope,
      sequence: servedSequence(core, form, listing, kind, dateOf),
      lookup: (id) => core.store.order(id),
      phantoms: (afterId, size) => phantomOrders(core, listed, afterId, size),
      // `sortOrder=Asc`, else newest first (always, under `sort-order-ignored`).
      direction:
        query.strings.get("sortOrder")?.toLowerCase() === "asc" && core.fault !== "sort-order-ignored"
          ? "asc"
          : "desc",
    };
    const views = apiViews(core);
    const view = ENTRY_VIEWS[kind];
    sendPage(core, ex, call.rules, query, request, (records, pageIndex) =>
      faulted(
        core.fault,
        records.map((record) => view(views, record)),
        records,
        { pageIndex, ofForm: form !== undefined },
      ),
    );
  };
}
