// What a signed-in shopper may still do with their own order, as plain forms that work without JavaScript: cancel it
// or send it elsewhere before it ships. Each form posts to the same tool staff and the assistant use (orders.cancel,
// orders.change_address); the tools check the order is the session customer's own and the shop's rules.
import { z } from "zod";
import { ToolError } from "../../../core/errors.ts";
import ordersCancel from "../../../tools/orders/cancel.ts";
import ordersChangeAddress from "../../../tools/orders/change_address.ts";
import type { orderDetail } from "../../../tools/orders/schemas.ts";
import { field, notice } from "../../components.ts";
import { formatKr, html, type Html } from "../../html.ts";
import type { Outcome } from "../../page.ts";
import type { StorefrontRequest } from "../site.ts";
import { reason } from "../texts.ts";

export type OrderDetail = z.output<typeof orderDetail>;
export interface LedgerEntry {
  kind: string;
  method: string;
  amountDkk: number;
  createdAt: string;
}

/** Statuses an order can still be cancelled or re-addressed in: it has not left the warehouse. */
const UNSHIPPED = new Set(["pending_payment", "pending", "flagged_review", "paid", "processing"]);

/** The fixed reasons a shopper picks from when cancelling; the Danish label is what the order records. */
export const CANCEL_REASONS: Record<string, string> = {
  regret: "Fortrudt købet",
  mistake: "Bestilt ved en fejl",
  cheaper: "Fundet billigere et andet sted",
  slow: "Leveringstiden er for lang",
  other: "Andet",
};

const METHODS: Record<string, string> = {
  card: "kort",
  mobilepay: "MobilePay",
  bank_transfer: "bankoverførsel",
  gift_card: "gavekort",
  manual: "manuel betaling",
};
const KINDS: Record<string, string> = { payment: "Betalt", refund: "Refunderet", store_credit: "Tilgodebevis" };

export interface ActionState {
  /** The address form's values and error after a refused change. */
  address?: { values: AddressValues; error: string };
  cancelError?: string;
}

interface AddressValues {
  name: string;
  address: string;
  zip: string;
  city: string;
}

/** What is left of the order's payments once refunds are taken off, in øre. */
function paidNet(ledger: readonly LedgerEntry[]): number {
  return ledger.reduce((sum, entry) => sum + (entry.kind === "payment" ? entry.amountDkk : -entry.amountDkk), 0);
}

/** The payments and refunds of the order, oldest first. */
export function ledgerSection(ledger: readonly LedgerEntry[]): Html {
  if (ledger.length === 0) return html``;
  return html`<section class="card ledger" aria-labelledby="ledger-title"><h2 id="ledger-title">Betalinger</h2>
<ul class="ledger-list">${ledger.map((entry) => html`<li><span>${KINDS[entry.kind] ?? entry.kind} · ${METHODS[entry.method] ?? entry.method}</span><span class="price">${entry.kind === "payment" ? "" : "−"}${formatKr(entry.amountDkk)}</span></li>`)}</ul>
</section>`;
}

/** The forms for an order that has not shipped; a note on what is possible for one that has. */
export function orderActions(web: StorefrontRequest, order: OrderDetail, ledger: readonly LedgerEntry[], state: ActionState = {}): Html {
  if (!UNSHIPPED.has(order.status)) {
    const refused = state.cancelError ?? state.address?.error;
    return refused ? notice("error", refused) : html``;
  }
  const paid = paidNet(ledger);
  const byTransfer = ledger.some((entry) => entry.kind === "payment" && entry.method === "bank_transfer");
  const values = state.address?.values ?? { name: order.shippingName, address: order.shippingAddress, zip: order.shippingZip, city: order.shippingCity };
  return html`<section class="card order-action" id="address" aria-labelledby="address-title">
<h2 id="address-title">Leveringsadresse</h2>
${state.address ? notice("error", state.address.error) : ""}
<p>Pakken er ikke sendt endnu, så du kan stadig ændre, hvor den skal hen.</p>
<form action="/orders/${order.id}/address" method="post">
${web.csrfField()}
${field({ name: "name", label: "Navn", value: values.name, required: true, autocomplete: "name", maxlength: 200 })}
${field({ name: "address", label: "Adresse", value: values.address, required: true, autocomplete: "street-address", maxlength: 200 })}
<div class="field-row">
${field({ name: "zip", label: "Postnummer", value: values.zip, required: true, autocomplete: "postal-code", inputmode: "numeric", pattern: "[0-9]{4}", maxlength: 4 })}
${field({ name: "city", label: "By", value: values.city, required: true, autocomplete: "address-level2", maxlength: 100 })}
</div>
<button class="button button-secondary" type="submit">Gem ny adresse</button>
</form>
</section>
<section class="card order-action" id="cancel" aria-labelledby="cancel-title">
<h2 id="cancel-title">Annuller ordren</h2>
${state.cancelError ? notice("error", state.cancelError) : ""}
<p>${paid > 0 ? html`Du får ${formatKr(paid)} tilbage, og varerne går tilbage på lager.` : "Ordren er ikke betalt, så der er intet at betale tilbage."}</p>
<form action="/orders/${order.id}/cancel" method="post">
${web.csrfField()}
<div class="field"><label for="f-reason">Hvorfor annullerer du?</label>
<select id="f-reason" name="reason" required>${Object.entries(CANCEL_REASONS).map(([key, label]) => html`<option value="${key}">${label}</option>`)}</select></div>
${paid > 0 ? html`<fieldset class="field"><legend>Hvor skal pengene hen?</legend>
<label class="choice"><input type="radio" name="refundTo" value="original" checked> Tilbage til ${byTransfer ? "din bankkonto" : "betalingsmåden"}</label>
<label class="choice"><input type="radio" name="refundTo" value="store_credit"> Som tilgodebevis (et gavekort på e-mail)</label>
</fieldset>
${byTransfer ? field({ name: "refundAccount", label: "Reg.nr. og kontonummer", hint: "Vi overfører beløbet hertil, når du vælger bankkonto.", autocomplete: "off", maxlength: 100 }) : ""}` : ""}
<button class="button button-danger" type="submit">Annuller ordren</button>
</form>
</section>`;
}

function orderIdOf(web: StorefrontRequest): string {
  return String(web.req.params.id);
}

/** POST /orders/:id/cancel: orders.cancel with the chosen reason and refund; back to the order with what happened. */
export async function cancelOrder(web: StorefrontRequest, rerender: (state: ActionState, status: number) => Promise<Outcome>): Promise<Outcome> {
  const orderId = orderIdOf(web);
  const reasonText = CANCEL_REASONS[web.field("reason")] ?? CANCEL_REASONS.other!;
  const refundTo = web.field("refundTo") === "store_credit" ? "store_credit" : "original";
  const account = web.field("refundAccount").trim();
  try {
    await web.call(ordersCancel, { orderId, reason: reasonText, refundTo, ...(account ? { refundAccount: account } : {}) });
  } catch (error) {
    if (!(error instanceof ToolError) || error.status >= 500 || error.status === 404) throw error;
    return rerender({ cancelError: reason(error) }, error.status === 400 ? 400 : 422);
  }
  return { redirect: `/orders/${orderId}?notice=order-cancelled` };
}

/** POST /orders/:id/address: orders.change_address; a refused address is shown again with the reason. */
export async function changeAddress(web: StorefrontRequest, rerender: (state: ActionState, status: number) => Promise<Outcome>): Promise<Outcome> {
  const orderId = orderIdOf(web);
  const values: AddressValues = { name: web.field("name").trim(), address: web.field("address").trim(), zip: web.field("zip").trim(), city: web.field("city").trim() };
  try {
    await web.call(ordersChangeAddress, { orderId, ...values });
  } catch (error) {
    if (!(error instanceof ToolError) || error.status >= 500 || error.status === 404) throw error;
    return rerender({ address: { values, error: reason(error) } }, error.status === 400 ? 400 : 422);
  }
  return { redirect: `/orders/${orderId}?notice=address-changed` };
}
