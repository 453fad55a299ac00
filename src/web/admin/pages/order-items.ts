// The order page's editors before shipping: one plain form per line (quantity and, for variant products, the variant)
// and a remove button, each posting to /admin/orders/<id>/items (orders.change_items), and the delivery method or
// parcel shop, posting to /admin/orders/<id>/delivery (orders.change_delivery).
import type { z } from "zod";
import changeItems from "../../../tools/orders/change_items.ts";
import changeDelivery from "../../../tools/orders/change_delivery.ts";
import type deliveryOptions from "../../../tools/orders/delivery_options.ts";
import type { orderDelivery } from "../../../tools/cart/delivery.ts";
import type itemOptions from "../../../tools/orders/item_options.ts";
import { html, type Html } from "../../html.ts";
import { formOpen, money, select, submit } from "../components.ts";
import type { AdminRequest } from "../site.ts";

type Options = z.output<(typeof itemOptions)["output"]>;

/** "Størrelse M · 1.299,00 kr. · 4 på lager" for a variant choice. */
function variantLabel(variant: Options[number]["variants"][number], currency: string): string {
  const attributes = Object.values(variant.attributes).join(", ") || variant.sku;
  return `${attributes} (${variant.sku}) · ${money(variant.unitPriceDkk, currency)} · ${variant.stock} på lager`;
}

/** For a paid order: how a rise is collected (orders.change_items collectWith); empty refuses a rise. */
function collectFields(id: string): Html {
  return html`<div class="form-pair">
<div class="field"><label for="${id}-collect">Hvis totalen stiger</label>
<select id="${id}-collect" name="collectWith"><option value="">Afvis ændringen</option><option value="payment_link">Send kunden et betalingslink</option><option value="original_card">Træk beløbet på kundens kort igen</option><option value="gift_card">Træk på gavekort eller tilgodebevis</option></select></div>
<div class="field"><label for="${id}-giftcard">Gavekortkode</label>
<input id="${id}-giftcard" name="giftCardCode" autocomplete="off" maxlength="40"></div>
</div>`;
}

function lineForm(web: AdminRequest, action: string, line: Options[number], currency: string, paid: boolean): Html {
  const id = `line-${line.orderItemId}`;
  const variants = line.variants.length
    ? html`<div class="field"><label for="${id}-variant">Variant</label>
<select id="${id}-variant" name="variantSku">${line.variants.map(
        (variant) => html`<option value="${variant.sku}"${variant.sku === line.variantSku ? " selected" : ""}>${variantLabel(variant, currency)}</option>`,
      )}</select></div>`
    : "";
  return html`<li class="line-edit"><h3>${line.productName}${line.variantSku ? html` <span class="hint">${line.variantSku}</span>` : ""}</h3>
${formOpen(web, action)}<input type="hidden" name="orderItemId" value="${line.orderItemId}">
<div class="form-pair">
<div class="field"><label for="${id}-quantity">Antal</label>
<input id="${id}-quantity" name="quantity" type="number" inputmode="numeric" min="0" max="100" required value="${line.quantity}"></div>
${variants}
</div>
${paid ? collectFields(id) : ""}
${submit(web, changeItems, "Gem linjen", "secondary")}
</form>
${formOpen(web, action, html` class="inline-form" data-confirm="Fjern linjen fra ordren?"`)}<input type="hidden" name="orderItemId" value="${line.orderItemId}"><input type="hidden" name="quantity" value="0">
<button type="submit" class="button button-secondary button-small"${web.may(changeItems) ? "" : " disabled"}>Fjern linjen</button>
</form></li>`;
}

/** The card with a form per line; a paid order's total can only fall, so the hint says where the difference goes. */
export function itemsEditor(web: AdminRequest, orderId: string, options: Options, paid: boolean, currency: string): Html {
  const action = `/admin/orders/${orderId}/items`;
  return html`<section class="card" id="edit-items"><h2>Ret varer</h2>
<p class="hint">${paid
    ? "Ordren er betalt: en lavere total refunderes kunden, som der blev betalt; en højere opkræves, som du vælger, og ordren sendes først, når den er betalt."
    : "Kunden får et betalingslink til det nye beløb på e-mail."} Lager, rabat og fragt regnes om.</p>
<ul class="line-edits">${options.map((line) => lineForm(web, action, line, currency, paid))}</ul>
</section>`;
}

type DeliveryOptions = z.output<(typeof deliveryOptions)["output"]>;
type Delivery = z.output<typeof orderDelivery>;

/**
 * The delivery card of an unshipped order: one choice per home method and per parcel shop of a pickup method (the
 * order's own first), priced for the order, posting to /admin/orders/<id>/delivery (orders.change_delivery).
 */
export function deliveryEditor(web: AdminRequest, orderId: string, options: DeliveryOptions, current: Delivery, paid: boolean, currency: string): Html {
  if (options.length === 0) return html``;
  const choices: Array<[string, string]> = options.flatMap((option) => {
    const price = option.priceDkk === 0 ? "gratis" : money(option.priceDkk, currency);
    if (option.kind === "home") return [[option.id, `${option.name} · ${price}`] as [string, string]];
    const own = current?.method === option.id ? current.pickupPoint : null;
    const points = own ? [own, ...option.pickupPoints.filter((point) => point.id !== own.id)] : option.pickupPoints;
    return points.map((point) => [`${option.id}|${point.id}`, `${option.name}: ${point.name}, ${point.zip} ${point.city} · ${price}`] as [string, string]);
  });
  const value = current ? (current.pickupPoint ? `${current.method}|${current.pickupPoint.id}` : current.method) : undefined;
  return html`<section class="card" id="edit-delivery"><h2>Ret levering</h2>
<p class="hint">${paid
    ? "Ordren er betalt: er den nye levering billigere, refunderes forskellen; en dyrere kan ikke vælges."
    : "Fragten regnes om, og kunden får et betalingslink til det nye beløb på e-mail."} Kunden får besked på e-mail.</p>
${formOpen(web, `/admin/orders/${orderId}/delivery`)}
${select({ name: "delivery", label: "Leveringsmåde og pakkeshop", value, choices })}
${submit(web, changeDelivery, "Gem levering", "secondary")}
</form>
</section>`;
}
