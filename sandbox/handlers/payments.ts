import { sendServiceErrors, serviceError } from "../checkout-request.js";
import { apiViews, emitType, notificationViews, type RouteHandler } from "../core.js";
import { refundOperation } from "../data/generate.js";
import { donationItemView, itemDetailView } from "../data/item-view.js";
import type { OrderRecord, PaymentRecord } from "../data/model.js";
import { orderView, paymentDetailView } from "../data/views.js";
import { sendErrors, sendJson } from "../http.js";
import { formatServiceDate } from "../service-dates.js";

/** `GET /v5/items/{itemId}` (organization_admin): the item, its order and payments. */
export const itemHandler: RouteHandler = (core, ex, call) => {
  const id = Number(call.params.itemId);
  const order = core.store.itemOrder(id);
  if (!order) {
    sendErrors(ex, 404, "NotFound", `No item with id "${call.params.itemId}".`);
    return;
  }
  const views = apiViews(core);
  sendJson(ex, 200, order.itemId === id ? itemDetailView(views, order) : donationItemView(views, order));
};

/** `GET /v5/payments/{paymentId}` (organization_admin): the payment with its refund operations. */
export const paymentHandler: RouteHandler = (core, ex, call) => {
  const found = core.store.payment(Number(call.params.paymentId));
  if (!found) {
    sendErrors(ex, 404, "NotFound", `No payment with id "${call.params.paymentId}".`);
    return;
  }
  sendJson(ex, 200, paymentDetailView(apiViews(core), found.order, found.payment));
};

const refunded = (payment: PaymentRecord) =>
  (payment.refundOperations ?? []).reduce((sum, refund) => sum + refund.amount, 0);

/**
 * `POST /v5/payments/{paymentId}/refund` (organization_admin): refunds what is left of an authorised
 * payment, or `amount` of it. The payment then carries the refund operation (state `Refunded` once fully
 * refunded), `cancelOrder=true` cancels the order, and a Payment notification is sent.
 */
export const refundHandler: RouteHandler = (core, ex, call) => {
  const found = core.store.payment(Number(call.params.paymentId));
  if (!found) {
    sendErrors(ex, 404, "NotFound", `No payment with id "${call.params.paymentId}".`);
    return;
  }
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
};

/**
 * `POST /v5/orders/{orderId}/cancel` (organization_admin): the order's items become `Canceled`, its
 * pending terms `Canceled`; an Order notification is sent. Canceling twice is a 400.
 */
export const cancelHandler: RouteHandler = (core, ex, call) => {
  const order = core.store.order(Number(call.params.orderId));
  if (!order) {
    sendErrors(ex, 404, "NotFound", `No order with id "${call.params.orderId}".`);
    return;
  }
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
};
