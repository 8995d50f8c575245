/**
 * Named faults: each one breaks exactly one rule of `contracts/rules.yaml`, so the suite can prove it
 * catches that rule. `assopay sandbox --list-faults` prints this table.
 */
export interface Fault {
  /** The fault's name, as `--fault` takes it. */
  readonly name: string;
  /** The id of the one rule it breaks (`contracts/rules.yaml`). */
  readonly rule: string;
  readonly description: string;
}

/** Every fault, in table order: the one list of their names (`FaultName` is derived from it). */
export const faults = Object.freeze([
  {
    name: "never-ending",
    rule: "pagination.end-is-empty-array",
    description: "Never answers an empty page: past the last entry it keeps serving new entries.",
  },
  {
    name: "token-mangled",
    rule: "pagination.token-echoed",
    description:
      "Form-decodes the continuation token a second time, so its '+' become spaces and the next page is refused.",
  },
  {
    name: "foreign-token-accepted",
    rule: "pagination.token-bound",
    description:
      "A continuation token of one listing is accepted by every other (another route, form or date window) and serves the page after its entry there.",
  },
  {
    name: "duplicate-entries",
    rule: "pagination.no-duplicates",
    description: "The second page starts again with the last entry of the first page.",
  },
  {
    name: "drop-at-boundary",
    rule: "pagination.complete",
    description:
      "Each continuation token skips one entry: the entry that would open the next page is never served, whatever the page size.",
  },
  {
    name: "early-empty-page",
    rule: "pagination.empty-page-only-at-end",
    description: "The third page is empty (with a token) though entries remain after it.",
  },
  {
    name: "limit-plus-one-drops-last",
    rule: "pagination.empty-page-only-at-end",
    description:
      "A listing holding exactly one entry more than the page size asked never serves its last entry: the second page is empty.",
  },
  {
    name: "early-no-token",
    rule: "pagination.token-until-end",
    description: "The second page carries no continuationToken though entries remain after it.",
  },
  {
    name: "organization-omits-entries",
    rule: "pagination.organization-holds-forms",
    description:
      "The organization's listings leave out one order in 13 (their items and payments too) at every page size, their totals counting only what they serve; the forms' listings still have them.",
  },
  {
    name: "form-omits-entries",
    rule: "pagination.form-holds-its-entries",
    description:
      "The forms' listings leave out one order in 13 (their items and payments too) at every page size, their totals counting only what they serve; the organization's listings still have them.",
  },
  {
    name: "orders-listing-omits-orders",
    rule: "pagination.complete",
    description:
      "The orders listings (a form's and the organization's) leave out one order in 7 at every page size and in either order, their totals counting only what they serve; the items and payments listings still name those orders.",
  },
  {
    name: "items-listing-omits-items",
    rule: "pagination.complete",
    description:
      "The items listings (a form's and the organization's) leave out the item of one order in 7 at every page size and in either order, their totals counting only what they serve; the orders and payments listings still name those items.",
  },
  {
    name: "sort-order-ignored",
    rule: "pagination.date-order",
    description: "sortOrder=Asc is answered newest first, as if it had not been sent.",
  },
  {
    name: "window-from-exclusive",
    rule: "pagination.date-window",
    description: "from is taken as exclusive: an entry dated exactly at from is left out of the window.",
  },
  {
    name: "later-pages-differ",
    rule: "pagination.same-entry",
    description:
      "Pages after the first serve their entries from a stale copy: each amount one cent more than the first page of another crawl shows for the same entry.",
  },
  {
    name: "oversized-pages",
    rule: "pagination.page-size",
    description: "Pages hold one entry more than pageSize, and pageSize above 100 is accepted.",
  },
  {
    name: "leak-counts",
    rule: "counts.minus-one-without-withcount",
    description: "After the withCount default flip, real totals come back without withCount=true.",
  },
  {
    name: "counts-after-removal",
    rule: "counts.absent-after-removal",
    description: "totalCount and totalPages stay in the responses after their removal date.",
  },
  {
    name: "wrong-counts",
    rule: "counts.real-with-withcount",
    description: "Real totals are off by one (totalCount one more than the entries a crawl finds).",
  },
  {
    name: "totals-floor",
    rule: "counts.real-with-withcount",
    description:
      "totalPages is floor(totalCount / pageSize): one page short whenever the last page is partial.",
  },
  {
    name: "v3-alive",
    rule: "versions.v3-switched-off",
    description: "v3 routes keep answering after their switch-off.",
  },
  {
    name: "v3-off-early",
    rule: "versions.v3-served-before-switch-off",
    description: "v3 routes answer 404 even before their switch-off.",
  },
  {
    name: "v5-off-with-v3",
    rule: "versions.v5-unaffected",
    description: "The v3 switch-off also takes down one v5 route (organization payments).",
  },
  {
    name: "draft-deprecation",
    rule: "versions.deprecation-headers",
    description:
      "Every catalogue route answers with the drafts' `Deprecation: true`, which RFC 9745 no longer allows, whatever the date.",
  },
  {
    name: "bad-dates",
    rule: "schema.responses",
    description: "API responses write dates without fraction and offset (2024-10-21T17:04:55).",
  },
  {
    name: "open-files",
    rule: "rights.file-needs-organization-admin",
    description: "Attached files download without a token or without the organization_admin right.",
  },
  {
    name: "files-for-readers",
    rule: "rights.file-needs-organization-admin",
    description:
      "Attached files are refused without a token but download with any valid token, organization_admin or not.",
  },
  {
    name: "no-file-urls",
    rule: "rights.order-detail-exposes-files",
    description: "Order detail leaves out the custom fields of type File, so no attached file URL is given.",
  },
  {
    name: "other-organization-entries",
    rule: "rights.own-organization-entries",
    description:
      "The organization's listings serve one order in 13 (its items and payments too) as another organization's: its organizationSlug is club-voisin's, as a provider that ignores the slug in the path serves them.",
  },
  {
    name: "no-custom-fields",
    rule: "public-form.custom-fields-and-options",
    description: "The public form carries empty customFields and extraOptions.",
  },
  {
    name: "wrong-signing-key",
    rule: "notifications.signature",
    description: "Notifications are signed with a key other than the URL's signatureKey.",
  },
  {
    name: "other-url-key",
    rule: "notifications.signature",
    description:
      "Each notification is signed with the signatureKey of another of the partner's URLs (its default key when it has one URL).",
  },
  {
    name: "bad-notification-envelope",
    rule: "notifications.payload-schema",
    description: "Notification bodies are {type, payload} instead of {eventType, data}.",
  },
  {
    name: "unverified-payments",
    rule: "associations.verification",
    description: "A newly registered, unverified association can receive payments after 2025-06-01.",
  },
  {
    name: "short-checkout-window",
    rule: "checkout.window-15-minutes",
    description: "The checkout payment window closes after 10 minutes instead of 15.",
  },
  {
    name: "limited-retries",
    rule: "checkout.unlimited-retries",
    description: "After 3 failed payments the checkout page sends the user to errorUrl.",
  },
  {
    name: "back-to-error-url",
    rule: "checkout.back-url",
    description: "Leaving the checkout page (back link or back arrow) leads to errorUrl instead of backUrl.",
  },
  {
    name: "lenient-tokens",
    rule: "auth.tokens",
    description:
      "On a known route, an unknown, altered or expired access token is accepted as a token without rights.",
  },
  {
    name: "routes-before-auth",
    rule: "auth.before-routing",
    description:
      "The route is looked up before the token is checked: an unknown /v5 route answers 404 even without a valid token.",
  },
] as const satisfies readonly Fault[]);

/** A fault's name, one of the table's. */
export type FaultName = (typeof faults)[number]["name"];

export function isFaultName(text: string): text is FaultName {
  return faults.some((f) => f.name === text);
}
