// Changing an unshipped order from "Mine ordrer" without JavaScript: another delivery method or parcel shop
// (orders.change_delivery, priced by orders.delivery_options). Each form posts to the tool staff and the assistant use;
// the tools check the order is the session's own and the money rules (a paid order cannot cost more).
import { z } from "zod";
import { ToolError } from "../../../core/errors.ts";
import ordersChangeDelivery from "../../../tools/orders/change_delivery.ts";
import type ordersDeliveryOptions from "../../../tools/orders/delivery_options.ts";
import type { orderDelivery } from "../../../tools/cart/delivery.ts";
import { notice } from "../../components.ts";
import { formatMoney, html, type Html } from "../../html.ts";
import type { Outcome } from "../../page.ts";
import type { StorefrontRequest } from "../site.ts";
import { reason } from "../texts.ts";
import type { orderDetail } from "../../../tools/orders/schemas.ts";

type OrderDetail = z.output<typeof orderDetail>;
/** A refused delivery change: what was chosen and why (the order page's ActionState carries it). */
export interface DeliveryFailure {
  method: string;
  pickupPointId: string;
  error: string;
}

export type DeliveryOptions = z.output<(typeof ordersDeliveryOptions)["output"]>;
type Delivery = z.output<typeof orderDelivery>;

const days = (option: DeliveryOptions[number]) => (option.minDays === option.maxDays ? `${option.minDays}` : `${option.minDays}–${option.maxDays}`);

/**
 * The delivery form of an unshipped order: each method priced for the order, a pickup method with its parcel shops
 * (the chosen one first), home delivery to the order's address. On a paid order a dearer method cannot be chosen.
 */
export function deliveryForm(web: StorefrontRequest, order: OrderDetail, options: DeliveryOptions, current: Delivery, state: { delivery?: DeliveryFailure }): Html {
  if (options.length === 0) return html``;
  const paid = order.paidAt !== null;
  const chosen = state.delivery?.method ?? current?.method ?? null;
  return html`<section class="card order-action" id="delivery" aria-labelledby="delivery-change-title">
<h2 id="delivery-change-title">Leveringsmåde</h2>
${state.delivery?.error ? notice("error", state.delivery.error) : ""}
<p>Vælg en anden pakkeshop, eller få pakken bragt hjem, indtil den er sendt.${paid ? " Koster den nye måde mindre, får du forskellen tilbage." : " Ordrens beløb følger fragtprisen."}</p>
<form action="/orders/${order.id}/delivery" method="post">
${web.csrfField()}
<fieldset class="delivery-methods"><legend>Levering</legend>
${options.map((option) => {
    const id = `change-${option.id}`;
    const dearer = paid && option.priceDkk > order.shippingDkk;
    const points = option.kind === "pickup" ? withCurrent(option.pickupPoints, current, option.id) : [];
    const selected = state.delivery?.method === option.id ? state.delivery.pickupPointId : current?.method === option.id ? current.pickupPoint?.id : undefined;
    return html`<div class="delivery-option">
<input id="${id}" name="deliveryMethod" type="radio" value="${option.id}"${option.id === chosen ? " checked" : ""}${dearer ? " disabled" : ""}>
<label for="${id}"><span class="delivery-name">${option.name}</span> <span class="price">${option.priceDkk === 0 ? "Gratis" : formatMoney(option.priceDkk, order.currency)}</span>
<span class="hint">${dearer ? "Koster mere, end du har betalt for fragt – kontakt os, hvis du vil skifte." : option.kind === "home" ? `Til ${order.shippingName}, ${order.shippingAddress}, ${order.shippingZip} ${order.shippingCity} · ${days(option)} hverdage` : `Levering på ${days(option)} hverdage`}</span></label>
${points.length
      ? html`<div class="field pickup-point"><label for="${id}-point">Pakkeshop</label>
<select id="${id}-point" name="pickupPoint-${option.id}">${points.map((point) => html`<option value="${point.id}"${point.id === selected ? " selected" : ""}>${point.name}, ${point.address}, ${point.zip} ${point.city}</option>`)}</select></div>`
      : ""}
</div>`;
  })}
</fieldset>
<button class="button button-secondary" type="submit">Gem leveringsmåde</button>
</form>
</section>`;
}

/** The carrier's nearest parcel shops, with the order's own shop first when it is one of this method's. */
function withCurrent(points: DeliveryOptions[number]["pickupPoints"], current: Delivery, methodId: string) {
  const own = current?.method === methodId ? current.pickupPoint : null;
  if (!own) return points;
  return [own, ...points.filter((point) => point.id !== own.id)];
}

/** POST /orders/:id/delivery: orders.change_delivery with the chosen method and its parcel shop; a refusal is shown at the form. */
export async function changeDelivery(web: StorefrontRequest, rerender: (state: { delivery: DeliveryFailure }, status: number) => Promise<Outcome>): Promise<Outcome> {
  const orderId = String(web.req.params.id);
  const method = web.field("deliveryMethod");
  const pickupPointId = method ? web.field(`pickupPoint-${method}`) : "";
  try {
    await web.call(ordersChangeDelivery, { orderId, method, ...(pickupPointId ? { pickupPointId } : {}) });
  } catch (error) {
    if (!(error instanceof ToolError) || error.status >= 500 || error.status === 404) throw error;
    return rerender({ delivery: { method, pickupPointId, error: method ? reason(error) : "Vælg en leveringsmåde." } }, error.status === 400 ? 400 : 422);
  }
  return { redirect: `/orders/${orderId}?notice=delivery-changed` };
}
