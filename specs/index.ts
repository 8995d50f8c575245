import { associationsVerificationCheck } from "./checkout/associations-verification.js";
import { backUrlCheck } from "./checkout/back-url.js";
import { unlimitedRetriesCheck } from "./checkout/unlimited-retries.js";
import { window15MinutesCheck } from "./checkout/window-15-minutes.js";
import { absentAfterRemovalCheck, minusOneCheck } from "./counts/first-page.js";
import { realWithWithCountCheck } from "./counts/real-with-withcount.js";
import { payloadSchemaCheck } from "./notifications/payload-schema.js";
import { signatureCheck } from "./notifications/signature.js";
import { verifyPactsCheck } from "./pact/verify-pacts.js";
import { completeCheck, emptyPageOnlyAtEndCheck, tokenUntilEndCheck } from "./pagination/completeness.js";
import { dateOrderCheck } from "./pagination/date-order.js";
import { dateWindowCheck } from "./pagination/date-window.js";
import { formHoldsItsEntriesCheck, organizationHoldsFormsCheck } from "./pagination/holding.js";
import { endIsEmptyArrayCheck, noDuplicatesCheck, resultArrayCheck } from "./pagination/listing-findings.js";
import { pageSizeCheck } from "./pagination/page-size.js";
import { sameEntryCheck } from "./pagination/same-entry.js";
import { tokenBoundCheck } from "./pagination/token-bound.js";
import { tokenEchoedCheck } from "./pagination/token-echoed.js";
import { customFieldsAndOptionsCheck } from "./public-form/custom-fields-and-options.js";
import { authBeforeRoutingCheck } from "./rights/auth-before-routing.js";
import { authTokensCheck } from "./rights/auth-tokens.js";
import { fileNeedsOrganizationAdminCheck } from "./rights/file-needs-organization-admin.js";
import { orderDetailExposesFilesCheck } from "./rights/order-detail-exposes-files.js";
import { ownOrganizationEntriesCheck } from "./rights/own-organization-entries.js";
import type { SpecCheck } from "./runner/verdicts.js";
import { documentRoutesCheck } from "./schemas/document-routes.js";
import { listingPagesCheck } from "./schemas/listing-pages.js";
import { resourcesCheck } from "./schemas/resources.js";
import { deprecationHeadersCheck } from "./versions/deprecation-headers.js";
import { v3ServedCheck } from "./versions/v3-served-before-switch-off.js";
import { v3SwitchedOffCheck } from "./versions/v3-switched-off.js";
import { v5UnaffectedCheck } from "./versions/v5-unaffected.js";

export type { CheckContext } from "./runner/context.js";
export type { VerifyOptions, VerifyOptionsInput } from "./runner/options.js";
export { resolveOptions } from "./runner/options.js";
export type { RunIo } from "./runner/run.js";
export { runVerify } from "./runner/run.js";
export type { CheckResult, RunReport, Verdict } from "./runner/types.js";
export type { SpecCheck } from "./runner/verdicts.js";

/** Every check, in the order a run takes them (groups in `CHECK_GROUPS` order). */
export function allChecks(): readonly SpecCheck[] {
  return Object.freeze([
    listingPagesCheck,
    resourcesCheck,
    documentRoutesCheck,
    resultArrayCheck,
    endIsEmptyArrayCheck,
    tokenEchoedCheck,
    tokenBoundCheck,
    noDuplicatesCheck,
    pageSizeCheck,
    completeCheck,
    emptyPageOnlyAtEndCheck,
    tokenUntilEndCheck,
    organizationHoldsFormsCheck,
    formHoldsItsEntriesCheck,
    dateOrderCheck,
    dateWindowCheck,
    sameEntryCheck,
    minusOneCheck,
    realWithWithCountCheck,
    absentAfterRemovalCheck,
    v3SwitchedOffCheck,
    v3ServedCheck,
    v5UnaffectedCheck,
    deprecationHeadersCheck,
    orderDetailExposesFilesCheck,
    fileNeedsOrganizationAdminCheck,
    authTokensCheck,
    authBeforeRoutingCheck,
    ownOrganizationEntriesCheck,
    customFieldsAndOptionsCheck,
    signatureCheck,
    payloadSchemaCheck,
    window15MinutesCheck,
    unlimitedRetriesCheck,
    backUrlCheck,
    associationsVerificationCheck,
    verifyPactsCheck,
  ]);
}
