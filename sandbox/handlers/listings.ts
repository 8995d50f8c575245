import type { Route } from "../../contracts/index.js";
import { apiViews, type RouteHandler, type SandboxCore } from "../core.js";
import { listEntryView } from "../data/item-view.js";
import type { FormDef, OrderRecord, Organization } from "../data/model.js";
import { orderDate, paymentDate } from "../data/sequence.js";
import { orderView, paymentView, type ViewContext } from "../data/views.js";
import type { FaultName } from "../faults.js";
import { sendErrors, sendJson, sendValidation } from "../http.js";
import { askedDirection, listingScope, listPage, phantomOrders, windowStart } from "../listing.js";
import { type EntryKind, servedSequence } from "../omissions.js";
import { addPaidOrder } from "../payments.js";
import { checkQuery } from "../query-check.js";

/** What the entries of a listing are, from the contract's `entrySchema`. */
function entryKind(route: Route): EntryKind | undefined {
  const schema = route.pagination?.entrySchema;
  switch (schema) {
    case "list-entry":
    case "order":
    case "payment":
      return schema;
    default:
      return undefined;
  }
}

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

function entryView(kind: EntryKind): (views: ViewContext, record: OrderRecord) => Record<string, unknown> {
  switch (kind) {
    case "list-entry":
      return listEntryView;
    case "order":
      return orderView;
    case "payment":
      return paymentView;
  }
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

/** The page a token leads to, or undefined when it is not one of this listing's. */
function pageIndexOf(core: SandboxCore, scope: string, token: string): number | undefined {
  const decoded = core.tokens.decode(scope, token);
  return decoded.ok ? decoded.cursor.pageIndex : undefined;
}

/**
 * Every paginated route of the catalogue (v5 and v3, organization or form, items, orders or payments):
 * the route's pagination spec names the result array and the entry schema.
 */
export function listingHandler(route: Route): RouteHandler {
  return (core, ex, call) => {
    const pagination = route.pagination;
    const kind = entryKind(route);
    if (!pagination || !kind) {
      sendErrors(
        ex,
        501,
        "NotImplemented",
        `the sandbox cannot list entries of schema ${pagination?.entrySchema}`,
      );
      return;
    }
    const { organizationSlug = "", formType, formSlug } = call.params;
    const organization = core.store.organization(organizationSlug);
    if (!organization) {
      sendErrors(ex, 404, "NotFound", `No organization with slug "${organizationSlug}".`);
      return;
    }
    let form: FormDef | undefined;
    if (formType !== undefined && formSlug !== undefined) {
      form = core.store.form(organization.slug, formType, formSlug);
      if (!form) {
        sendErrors(
          ex,
          404,
          "NotFound",
          `No form ${formType}/${formSlug} in organization "${organization.slug}".`,
        );
        return;
      }
    }
    const query = checkQuery(route, call.rules, ex.query, core.fault);
    if (Object.keys(query.errors).length > 0) {
      sendValidation(ex, query.errors);
      return;
    }
    const listed = form ?? core.store.mainForm;
    const scope = listingScope(route, organization.slug, form, {
      from: query.dates.get("from"),
      to: query.dates.get("to"),
    });
    const token = query.strings.get("continuationToken");
    // A live listing takes an order with each fresh first page, whatever the query, and once within each
    // crawl of a form, at its third page. Once, not every third page asked: counted over all the pages
    // asked, the growth follows the client's pace, and crawls at the listing's tail (oldest first) would
    // grow it for one another at every page and never reach the empty page that ends a crawl (seed,
    // rule 3); the real service's crawls end, and new entries wait for the token kept at the end.
    if (
      core.growing &&
      (token === undefined || (form !== undefined && pageIndexOf(core, scope, token) === 3))
    ) {
      growOne(core, organization, listed);
    }
    const outcome = listPage(core, {
      rules: call.rules,
      scope,
      sequence: servedSequence(
        core,
        form,
        core.store.sequence(
          organization.slug,
          form,
          windowStart(core, query.dates.get("from")),
          query.dates.get("to"),
          kind === "payment" ? paymentDate : orderDate,
        ),
        kind,
      ),
      lookup: (id) => core.store.order(id),
      phantoms: (afterId, size) => phantomOrders(core, listed, afterId, size),
      token,
      pageSize: query.integers.get("pageSize") ?? pagination.defaultPageSize,
      pageIndex: query.integers.get("pageIndex"),
      direction: askedDirection(core, query.strings.get("sortOrder")),
      withCount: query.booleans.get("withCount"),
    });
    if (!outcome.ok) {
      sendValidation(ex, { continuationToken: [outcome.message] });
      return;
    }
    const views = apiViews(core);
    const view = entryView(kind);
    const fresh = outcome.records.map((record) => view(views, record));
    const entries = faulted(core.fault, fresh, outcome.records, {
      pageIndex: outcome.pagination.pageIndex,
      ofForm: form !== undefined,
    });
    sendJson(ex, 200, { [pagination.resultArray]: entries, pagination: outcome.pagination });
  };
}
