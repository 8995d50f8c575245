import {
  apiViews,
  emitType,
  notificationViews,
  type RouteCall,
  type RouteHandler,
  type SandboxCore,
} from "../core.js";
import { refundOperation } from "../data/generate.js";
import type { OrderRecord, PaymentRecord } from "../data/model.js";
import { itemDetailView, orderView, paymentDetailView } from "../data/views.js";
import { type Exchange, orNotFound, sendJson, sendServiceErrors, sendText, serviceError } from "../http.js";
import { formatServiceDate } from "../service-dates.js";

const orderOf = (core: SandboxCore, ex: Exchange, call: RouteCall) =>
  orNotFound(ex, core.store.order(Number(call.params.orderId)), `No order with id "${call.params.orderId}".`);

const paymentOf = (core: SandboxCore, ex: Exchange, call: RouteCall) =>
  orNotFound(
    ex,
    core.store.payment(Number(call.params.paymentId)),
    `No payment with id "${call.params.paymentId}".`,
  );

const refunded = (payment: PaymentRecord) =>
  (payment.refundOperations ?? []).reduce((sum, refund) => sum + refund.amount, 0);

/** The routes of orders, their items and payments (all organization_admin). */
export const orderHandlers: Readonly<Record<string, RouteHandler>> = {
  /** `GET /v5/orders/{orderId}`: the order with the URL of each attached file. */
  "v5.order-detail": (core, ex, call) => {
    const order = orderOf(core, ex, call);
    if (order) sendJson(ex, 200, orderView(apiViews(core), order, true));
  },

  /** `GET /v5/orders/{orderId}/files/{fileId}`: the attached file's bytes. */
  "v5.attached-file": (core, ex, call) => {
    const { orderId, fileId } = call.params;
    const file = orNotFound(
      ex,
      core.store.attachedFile(Number(orderId), Number(fileId)),
      `Order "${orderId}" has no attached file "${fileId}".`,
    );
    if (!file) return;
    sendText(ex, 200, file.content, {
      "content-type": core.contract.routes.byId("v5.attached-file").response.contentType,
      "content-disposition": `attachment; filename="${file.fileName}"`,
    });
  },

  /** `GET /v5/items/{itemId}`: the item, its order and payments. */
  "v5.item": (core, ex, call) => {
    const id = Number(call.params.itemId);
    const order = orNotFound(ex, core.store.itemOrder(id), `No item with id "${call.params.itemId}".`);
    if (!order) return;
    sendJson(ex, 200, itemDetailView(apiViews(core), order, id));
  },

  /** `GET /v5/payments/{paymentId}`: the payment with its refund operations. */
  "v5.payment": (core, ex, call) => {
    const found = paymentOf(core, ex, call);
    if (found) sendJson(ex, 200, paymentDetailView(apiViews(core), found.order, found.payment));
  },

  /**
   * `POST /v5/payments/{paymentId}/refund`: refunds what is left of an authorised payment, or `amount` of
   * it. The payment then carries the refund operation (state `Refunded` once fully refunded),
   * `cancelOrder=true` cancels the order, and a Payment notification is sent.
   */
  "v5.payment-refund": (core, ex, call) => {
    const found = paymentOf(core, ex, call);
    if (!found) return;
    const { order, payment } = found;
    const left = payment.amount - refunded(payment);
    if (payment.state !== "Authorized" || left <= 0) {
      const why = `payment ${payment.id} is ${payment.state} with ${left} cents left to refund`;
      sendServiceErrors(ex, 400, [serviceError("RefundNotAllowed", `Cannot refund: ${why}.`)]);
      return;
    }
    const asked = ex.query.get("amount");
    const amount = asked === null ? left : Number(asked);
    if (!Number.isInteger(amount) || amount <= 0 || amount > left) {
      const message = `amount must be a whole number of cents from 1 to ${left}, got ${asked}.`;
      sendServiceErrors(ex, 400, [serviceError("InvalidAmount", message)]);
      return;
    }
    const at = core.clock.instant();
    const refund = refundOperation(payment, amount, at);
    const operations = [...(payment.refundOperations ?? []), refund];
    const changedPayment: PaymentRecord = {
      ...payment,
      refundOperations: operations,
      state: amount === left ? "Refunded" : payment.state,
    };
    const cancelOrder = ex.query.get("cancelOrder")?.toLowerCase() === "true";
    const changed: OrderRecord = {
      ...order,
      payments: order.payments.map((p) => (p.id === payment.id ? changedPayment : p)),
      ...(cancelOrder ? { canceled: true } : {}),
    };
    core.store.replaceOrder(changed);
    const slug = changed.organization.slug;
    emitType(core, "payment", slug, paymentDetailView(notificationViews(core), changed, changedPayment));
    sendJson(ex, 200, {
      id: refund.id,
      amount,
      cancelOrder,
      creationDate: formatServiceDate(at, "service"),
      state: refund.state,
      sendRefundMail: ex.query.get("sendRefundMail")?.toLowerCase() !== "false",
      paymentId: payment.id,
    });
  },

  /**
   * `POST /v5/orders/{orderId}/cancel`: the order's items become `Canceled`, its pending terms
   * `Canceled`; an Order notification is sent. Canceling twice is a 400.
   */
  "v5.order-cancel": (core, ex, call) => {
    const order = orderOf(core, ex, call);
    if (!order) return;
    if (order.canceled) {
      sendServiceErrors(ex, 400, [serviceError("AlreadyCanceled", `Order ${order.id} is already canceled.`)]);
      return;
    }
    const changed: OrderRecord = {
      ...order,
      canceled: true,
      payments: order.payments.map((p) => (p.state === "Pending" ? { ...p, state: "Canceled" } : p)),
    };
    core.store.replaceOrder(changed);
    emitType(core, "order", changed.organization.slug, orderView(notificationViews(core), changed));
    sendJson(ex, 200, {});
  },
};
