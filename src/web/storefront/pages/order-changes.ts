// Changing an unshipped order from "Mine ordrer" without JavaScript: another delivery method or parcel shop
// (orders.change_delivery, priced by orders.delivery_options), another size or colour of a line (orders.change_items,
// the variants from orders.item_options). Each form posts to the tool staff and the assistant use;
// the tools check the order is the session's own and the money rules (a paid order cannot cost more).
import { z } from "zod";
import { ToolError } from "../../../core/errors.ts";
import ordersChangeDelivery from "../../../tools/orders/change_delivery.ts";
import ordersChangeItems from "../../../tools/orders/change_items.ts";
import type ordersItemOptions from "../../../tools/orders/item_options.ts";
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

export type ItemOptions = z.output<(typeof ordersItemOptions)["output"]>;
/** A refused swap: the line it was for and why. */
export interface SwapFailure {
  orderItemId: string;
  error: string;
}

/** "M / Sort" for a variant, or its SKU. */
const variantName = (variant: ItemOptions[number]["variants"][number]) => Object.values(variant.attributes).join(" / ") || variant.sku;

/**
 * "Skift størrelse eller farve": for each line of a variant product with other variants in stock, a select of them
 * with the price difference a swap makes, posting to /orders/<id>/items (orders.change_items). On a paid order a dearer
 * variant cannot be chosen (the tool refuses it too).
 */
export function swapForm(web: StorefrontRequest, order: OrderDetail, options: ItemOptions, state: { swap?: SwapFailure }): Html {
  const paid = order.paidAt !== null;
  const lines = options
    .map((line) => {
      const item = order.items.find((candidate) => candidate.id === line.orderItemId);
      const others = line.variants.filter((variant) => variant.sku !== line.variantSku && variant.stock >= line.quantity);
      return item && line.variantSku && others.length ? { line, item, others } : null;
    })
    .filter((entry) => entry !== null);
  if (lines.length === 0) return html``;
  return html`<section class="card order-action" id="swap" aria-labelledby="swap-title">
<h2 id="swap-title">Skift størrelse eller farve</h2>
<p>Pakken er ikke sendt endnu, så du kan vælge en anden variant af en vare.${paid ? " Koster den mindre, får du forskellen tilbage; en dyrere kan ikke vælges på en betalt ordre." : " Ordrens beløb følger prisen."}</p>
${lines.map(({ line, item, others }) => {
    const id = `swap-${line.orderItemId}`;
    const error = state.swap?.orderItemId === line.orderItemId ? state.swap.error : null;
    return html`<form class="return-form" action="/orders/${order.id}/items" method="post">
${web.csrfField()}
<input type="hidden" name="orderItemId" value="${line.orderItemId}">
<h3>${line.productName} <span class="hint">(${line.variantSku})</span></h3>
${error ? notice("error", error) : ""}
<div class="field"><label for="${id}">Skift til</label>
<select id="${id}" name="variantSku">${others.map((variant) => {
      const difference = (variant.unitPriceDkk - item.unitPriceDkk) * line.quantity;
      const dearer = paid && difference > 0;
      const said = difference === 0 ? "samme pris" : difference > 0 ? `+${formatMoney(difference, order.currency)}` : `−${formatMoney(-difference, order.currency)}`;
      return html`<option value="${variant.sku}"${dearer ? " disabled" : ""}>${variantName(variant)} (${said}${dearer ? ", kan ikke vælges" : ""})</option>`;
    })}</select></div>
<button class="button button-secondary" type="submit">Skift variant</button>
</form>`;
  })}
</section>`;
}

/** POST /orders/:id/items: orders.change_items swapping one line to the chosen variant; a refusal is shown at that line. */
export async function swapVariant(web: StorefrontRequest, rerender: (state: { swap: SwapFailure }, status: number) => Promise<Outcome>): Promise<Outcome> {
  const orderId = String(web.req.params.id);
  const orderItemId = web.field("orderItemId");
  const variantSku = web.field("variantSku");
  try {
    await web.call(ordersChangeItems, { orderId, items: [{ orderItemId, variantSku }] });
  } catch (error) {
    if (!(error instanceof ToolError) || error.status >= 500) throw error;
    return rerender({ swap: { orderItemId, error: reason(error) } }, error.status === 400 ? 400 : error.status === 404 ? 404 : 422);
  }
  return { redirect: `/orders/${orderId}?notice=items-changed#swap` };
}
