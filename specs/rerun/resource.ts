import { type Contract, FILES_RULE, judgeSchema, PUBLIC_FORM_RULE } from "../../contracts/index.js";
import { filledOffers } from "../public-form/custom-fields-and-options.js";
import { attachedFileUrls } from "../rights/order-fixture.js";
import { evidenceOf } from "../runner/http.js";
import type { Exchange, Judgement } from "./finding.js";

/**
 * Judges a served answer of a route that does not paginate: its schema (by the one schema judge, each
 * sentence blamed on the rule that owns it), and where the recording showed them, the public form's
 * custom fields and options and the order detail's attached file URLs.
 */
export function judgeResource(exchange: Exchange, judgement: Judgement, contract: Contract): void {
  const { route, target, targetBody: body, recorded } = exchange;
  if (!route?.response.schema) return;
  if (body === undefined) {
    judgement.fail("schema.responses", `${route.id} answered a body that is not JSON`, evidenceOf(target));
    return;
  }
  for (const { rule, reason, diagnostics } of judgeSchema(contract.schemas, route, body))
    judgement.fail(rule, reason, evidenceOf(target, undefined, diagnostics));
  if (!exchange.sameResource) {
    if (route.id === "v5.order-detail" || route.id === "v5.public-form") {
      judgement.notes.push(
        "the target's ids differ from the recording's, so this is another resource: its contents are not compared",
      );
    }
    return;
  }
  if (
    route.id === "v5.public-form" &&
    filledOffers(recorded.body).length > 0 &&
    filledOffers(body).length === 0
  ) {
    const reason =
      "the recorded form offered customFields and extraOptions; the target's has none (empty or missing)";
    judgement.fail(PUBLIC_FORM_RULE, reason, evidenceOf(target));
  }
  if (route.id === "v5.order-detail") {
    const recordedFiles = attachedFileUrls(recorded.body);
    if (recordedFiles.length > 0 && attachedFileUrls(body).length === 0) {
      judgement.fail(
        FILES_RULE,
        `the recorded detail gave ${recordedFiles.length} attached file URL(s) (custom fields of type File); the target's gives none`,
        evidenceOf(target),
      );
    }
  }
}
