import { evidenceOf, isSuccess } from "../runner/http.js";
import { fail, pass, skip, specCheck } from "../runner/verdicts.js";
import { orderFixture } from "./order-fixture.js";

/** Order detail (Versioning 6): the detail of an order gives the URL of each file attached in a custom field. */
export const orderDetailExposesFilesCheck = specCheck({
  id: "rights/order-detail-exposes-files",
  rule: "rights.order-detail-exposes-files",
  title: "Order detail gives the URL of each attached file",
  async run(ctx) {
    const fixture = await orderFixture(ctx);
    if (!fixture.ok) return skip(fixture.reason);
    const { detail } = fixture;
    if (!isSuccess(detail.status)) {
      return fail(
        `the order detail of order ${fixture.orderId} was refused with ${detail.status} to the admin token`,
        evidenceOf(detail),
      );
    }
    if (fixture.fileUrls.length === 0 && fixture.source === "crawl") return skip(fixture.note);
    if (fixture.fileUrls.length === 0) {
      return fail(
        `the detail of order ${fixture.orderId} (${fixture.note}), which has an attached file, gives no custom field of type File with a URL`,
        evidenceOf(detail),
      );
    }
    if (fixture.stateFileUrl && !fixture.fileUrls.includes(fixture.stateFileUrl)) {
      return fail(
        `the detail does not give the attached file ${fixture.stateFileUrl} the state created`,
        evidenceOf(detail, { fileUrls: fixture.fileUrls }),
      );
    }
    return pass(
      `order ${fixture.orderId}: ${fixture.fileUrls.length} attached file URL(s) (${fixture.note})`,
    );
  },
});
