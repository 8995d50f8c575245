import { apiViews, type RouteHandler } from "../core.js";
import { orderView } from "../data/views.js";
import { sendErrors, sendJson, sendText } from "../http.js";

/** `GET /v5/orders/{orderId}`: the order with the URL of each attached file (organization_admin). */
export const orderDetailHandler: RouteHandler = (core, ex, call) => {
  const order = core.store.order(Number(call.params.orderId));
  if (!order) {
    sendErrors(ex, 404, "NotFound", `No order with id "${call.params.orderId}".`);
    return;
  }
  sendJson(ex, 200, orderView(apiViews(core), order, true));
};

/** `GET /v5/orders/{orderId}/files/{fileId}`: the attached file's bytes (organization_admin). */
export const attachedFileHandler: RouteHandler = (core, ex, call) => {
  const file = core.store.attachedFile(Number(call.params.orderId), Number(call.params.fileId));
  if (!file) {
    sendErrors(
      ex,
      404,
      "NotFound",
      `Order "${call.params.orderId}" has no attached file "${call.params.fileId}".`,
    );
    return;
  }
  const route = core.contract.routes.byId("v5.attached-file");
  sendText(ex, 200, file.content, {
    "content-type": route.response.contentType,
    "content-disposition": `attachment; filename="${file.fileName}"`,
  });
};
