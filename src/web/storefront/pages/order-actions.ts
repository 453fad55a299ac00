// What a shopper may still do with their own order, as plain forms that work without JavaScript: cancel it or send it
// elsewhere before it ships; return or exchange goods once it has. Each form posts to the same tool staff and the
// assistant use (orders.cancel, orders.change_address, returns.request); the tools check the order is the session's own
// (placed in it, or its signed-in customer's) and the shop's rules (deadlines, non-returnable products).
import { z } from "zod";
import { ToolError } from "../../../core/errors.ts";
import ordersCancel from "../../../tools/orders/cancel.ts";
import ordersChangeAddress from "../../../tools/orders/change_address.ts";
import type ordersItemOptions from "../../../tools/orders/item_options.ts";
import returnsRequest from "../../../tools/returns/request.ts";
import { returnReference, type returnView } from "../../../tools/returns/schemas.ts";
import type { orderDetail } from "../../../tools/orders/schemas.ts";
import { nextActions } from "../../../tools/orders/transitions.ts";
import { field, notice } from "../../components.ts";
import { formatMoney, html, type Html } from "../../html.ts";
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

/** The fixed reasons a shopper picks from when cancelling; the Danish label is what the order records. */
const CANCEL_REASONS: Record<string, string> = {
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
  exchange: "overført til ombytningen",
};
const KINDS: Record<string, string> = { payment: "Betalt", refund: "Refunderet", store_credit: "Tilgodebevis" };

export interface ActionState {
  /** The address form's values and error after a refused change. */
  address?: { values: AddressValues; error: string };
  cancelError?: string;
  /** A refused return request: the line it was for and why. */
  returnError?: { orderItemId: string; error: string };
}

export type ReturnView = z.output<typeof returnView>;
export type ItemOptions = z.output<(typeof ordersItemOptions)["output"]>;

const RETURN_STATUS: Record<string, string> = {
  requested: "Anmodet – vi vender tilbage",
  approved: "Godkendt – send varen til os",
  received: "Modtaget",
  refunded: "Refunderet",
  rejected: "Afvist",
};

interface AddressValues {
  name: string;
  address: string;
  zip: string;
  city: string;
}

/**
 * The newest of `items` whose amounts make up `pendingDkk`: the bank-transfer refunds staff have not paid yet (the
 * tasks say how much is open, not which refund; staff pay the oldest first, so the newest are the ones still open).
 */
function stillOpen<T>(items: readonly T[], amount: (item: T) => number, pendingDkk: number): Set<T> {
  const open = new Set<T>();
  let left = pendingDkk;
  for (const item of [...items].reverse()) {
    if (left <= 0) break;
    open.add(item);
    left -= amount(item);
  }
  return open;
}

/** The payments and refunds of the order, oldest first; a bank-transfer refund staff have not paid yet "Refunderes". */
export function ledgerSection(ledger: readonly LedgerEntry[], currency: string, pendingDkk = 0): Html {
  if (ledger.length === 0) return html``;
  const open = stillOpen(ledger.filter((entry) => entry.kind === "refund" && entry.method === "bank_transfer"), (entry) => entry.amountDkk, pendingDkk);
  return html`<section class="card ledger" aria-labelledby="ledger-title"><h2 id="ledger-title">Betalinger</h2>
<ul class="ledger-list">${ledger.map((entry) => html`<li><span>${open.has(entry) ? "Refunderes" : (KINDS[entry.kind] ?? entry.kind)} · ${METHODS[entry.method] ?? entry.method}</span><span class="price">${entry.kind === "payment" ? "" : "−"}${formatMoney(entry.amountDkk, currency)}</span></li>`)}</ul>
</section>`;
}

/**
 * The forms for what the order's status still offers (re-address, cancel: before it ships); a refusal's reason when it
 * offers neither. `netPaidDkk` (orders.get_balance) is what a cancellation gives back.
 */
export function orderActions(web: StorefrontRequest, order: OrderDetail, ledger: readonly LedgerEntry[], netPaidDkk: number, state: ActionState = {}): Html {
  const actions = nextActions(order.status);
  if (!actions.has("change_address") && !actions.has("cancel")) {
    const refused = state.cancelError ?? state.address?.error;
    return refused ? notice("error", refused) : html``;
  }
  return html`${actions.has("change_address") ? addressForm(web, order, state) : ""}
${actions.has("cancel") ? cancelForm(web, order, ledger, netPaidDkk, state) : ""}`;
}

function addressForm(web: StorefrontRequest, order: OrderDetail, state: ActionState): Html {
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
</section>`;
}

function cancelForm(web: StorefrontRequest, order: OrderDetail, ledger: readonly LedgerEntry[], netPaidDkk: number, state: ActionState): Html {
  const byTransfer = ledger.some((entry) => entry.kind === "payment" && entry.method === "bank_transfer");
  return html`<section class="card order-action" id="cancel" aria-labelledby="cancel-title">
<h2 id="cancel-title">Annuller ordren</h2>
${state.cancelError ? notice("error", state.cancelError) : ""}
<p>${netPaidDkk > 0 ? html`Du får ${formatMoney(netPaidDkk, order.currency)} tilbage, og varerne går tilbage på lager.` : "Ordren er ikke betalt, så der er intet at betale tilbage."}</p>
<form action="/orders/${order.id}/cancel" method="post">
${web.csrfField()}
<div class="field"><label for="f-reason">Hvorfor annullerer du?</label>
<select id="f-reason" name="reason" required>${Object.entries(CANCEL_REASONS).map(([key, label]) => html`<option value="${key}">${label}</option>`)}</select></div>
${netPaidDkk > 0 ? html`${refundChoices("cancel", byTransfer ? "din bankkonto" : "betalingsmåden")}
${byTransfer ? field({ name: "refundAccount", label: "Reg.nr. og kontonummer", hint: "Vi overfører beløbet hertil, når du vælger bankkonto.", autocomplete: "off", maxlength: 100 }) : ""}` : ""}
<button class="button button-danger" type="submit">Annuller ordren</button>
</form>
</section>`;
}

/**
 * "Refunder til": the original payment (the default), store credit, or a gift card the shopper names (topped up), as radio
 * buttons with the card's code field; refundChoice reads them back.
 */
function refundChoices(id: string, original: string): Html {
  return html`<fieldset class="field"><legend>Refunder til</legend>
<label class="choice"><input type="radio" name="refundTo" value="original" checked> Oprindelig betaling (${original})</label>
<label class="choice"><input type="radio" name="refundTo" value="store_credit"> Tilgodebevis (et nyt gavekort på e-mail)</label>
<label class="choice"><input type="radio" name="refundTo" value="gift_card"> Mit gavekort (vi sætter beløbet ind på det)</label>
${field({ name: "refundCard", id: `g-${id}`, label: "Gavekortets kode", hint: "Kun hvis du vælger dit gavekort.", autocomplete: "off", maxlength: 40, placeholder: "XXXX-XXXX-XXXX-XXXX" })}
</fieldset>`;
}

/** The refundTo the form asked for (undefined: the original payment), or the Danish error when a card was chosen without its code. */
function refundChoice(web: StorefrontRequest): { refundTo?: string; error?: string } {
  const choice = web.field("refundTo");
  if (choice === "store_credit") return { refundTo: "store_credit" };
  if (choice !== "gift_card") return {};
  const code = web.field("refundCard").trim();
  return code ? { refundTo: code } : { error: "Skriv koden fra dit gavekort, eller vælg en anden måde at få pengene tilbage på." };
}

/** A refusal at a form that named a gift card: an unknown card is the card's fault, not a missing order. */
function refusalAt(error: ToolError, refundTo: string | undefined): string {
  return error.status === 404 && /gift card/i.test(error.message) && refundTo ? "Vi kender ikke det gavekort. Tjek koden." : reason(error);
}

/** Units of a line not yet in a return that is still open or accepted. */
function unitsLeft(line: { id: string; quantity: number }, returns: readonly ReturnView[]): number {
  const held = returns.filter((ret) => ret.status !== "rejected").flatMap((ret) => ret.items).filter((item) => item.orderItemId === line.id);
  return line.quantity - held.reduce((sum, item) => sum + item.quantity, 0);
}

/** The order's returns, and for a shipped order a return form per line that still has units to send back. */
export function returnSection(web: StorefrontRequest, order: OrderDetail, returns: readonly ReturnView[], options: ItemOptions, state: ActionState = {}, returnDays = 14, pendingDkk = 0): Html {
  // A return is offered within the deadlines the tool enforces.
  const returnable = nextActions(order.status).has("return");
  if (!returnable && returns.length === 0) return html``;
  const lines = returnable ? order.items.filter((line) => unitsLeft(line, returns) > 0) : [];
  const open = stillOpen([...returns].reverse().filter((ret) => ret.status === "refunded" && ret.refundDkk), (ret) => ret.refundDkk ?? 0, pendingDkk);
  const status = (ret: ReturnView) => (open.has(ret) ? "Modtaget – beløbet refunderes til din bankkonto" : (RETURN_STATUS[ret.status] ?? ret.status));
  return html`<section class="card order-action" id="returns" aria-labelledby="returns-title">
<h2 id="returns-title">Returnér eller byt</h2>
${returns.length ? html`<ul class="return-list">${returns.map((ret) => html`<li><strong>${returnReference({ id: ret.returnId })}</strong> · ${ret.items.map((item) => `${item.quantity} × ${item.productName}`).join(", ")}<br><span class="hint">${ret.kind === "withdrawal" ? "Fortrydelse" : "Reklamation"} · ${status(ret)}${ret.refundDkk ? html` · ${formatMoney(ret.refundDkk, order.currency)} retur` : ""}${ret.rejectReason ? html` · ${ret.rejectReason}` : ""}</span></li>`)}</ul>` : ""}
${lines.length ? html`<p>Du kan fortryde købet inden for ${returnDays} dage efter levering og reklamere over fejl i 2 år. Vælg varen, og skriv kort hvorfor; vi sender en returvejledning på e-mail.</p>
${lines.map((line) => returnForm(web, order, line, unitsLeft(line, returns), options.find((option) => option.orderItemId === line.id), state))}` : ""}
</section>`;
}

function returnForm(web: StorefrontRequest, order: OrderDetail, line: OrderDetail["items"][number], left: number, option: ItemOptions[number] | undefined, state: ActionState): Html {
  const id = line.id;
  const error = state.returnError?.orderItemId === id ? state.returnError.error : null;
  const swaps = (option?.variants ?? []).filter((variant) => variant.sku !== line.variantSku && variant.stock > 0);
  return html`<form class="return-form" action="/orders/${order.id}/return" method="post">
${web.csrfField()}
<input type="hidden" name="orderItemId" value="${id}">
<h3>${line.productName}${line.variantSku ? html` <span class="hint">(${line.variantSku})</span>` : ""}</h3>
${error ? notice("error", error) : ""}
${left > 1 ? field({ name: "quantity", id: `q-${id}`, label: "Antal", type: "number", value: "1", min: 1, max: left, required: true, inputmode: "numeric" }) : html`<input type="hidden" name="quantity" value="1">`}
<fieldset class="field"><legend>Hvorfor?</legend>
<label class="choice"><input type="radio" name="kind" value="withdrawal" checked> Jeg har fortrudt (fortrydelsesret)</label>
<label class="choice"><input type="radio" name="kind" value="complaint"> Varen er i stykker eller forkert (reklamation)</label>
</fieldset>
${field({ name: "reason", id: `r-${id}`, label: "Beskriv kort", required: true, maxlength: 1000 })}
${swaps.length ? html`<div class="field"><label for="x-${id}">Pengene tilbage eller byt</label>
<select id="x-${id}" name="exchangeVariantId"><option value="">Pengene tilbage</option>${swaps.map((variant) => html`<option value="${variant.id}">Byt til ${Object.values(variant.attributes).join(" / ") || variant.sku}</option>`)}</select></div>` : ""}
${refundChoices(id, "samme måde, som du betalte")}
<button class="button button-secondary" type="submit">Anmod om retur</button>
</form>`;
}

function orderIdOf(web: StorefrontRequest): string {
  return String(web.req.params.id);
}

/** POST /orders/:id/cancel: orders.cancel with the chosen reason and refund; back to the order with what happened. */
export async function cancelOrder(web: StorefrontRequest, rerender: (state: ActionState, status: number) => Promise<Outcome>): Promise<Outcome> {
  const orderId = orderIdOf(web);
  const reasonText = CANCEL_REASONS[web.field("reason")] ?? CANCEL_REASONS.other!;
  const { refundTo, error: choiceError } = refundChoice(web);
  if (choiceError) return rerender({ cancelError: choiceError }, 400);
  const account = web.field("refundAccount").trim();
  try {
    await web.call(ordersCancel, { orderId, reason: reasonText, ...(refundTo ? { refundTo } : {}), ...(account ? { refundAccount: account } : {}) });
  } catch (error) {
    const cardRefused = error instanceof ToolError && error.status === 404 && refundTo !== undefined && /gift card/i.test(error.message);
    if (!(error instanceof ToolError) || error.status >= 500 || (error.status === 404 && !cardRefused)) throw error;
    return rerender({ cancelError: refusalAt(error, refundTo) }, error.status === 400 ? 400 : 422);
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

/** POST /orders/:id/return: returns.request for one line; a refusal (deadline, non-returnable …) is shown at that line. */
export async function requestReturn(web: StorefrontRequest, rerender: (state: ActionState, status: number) => Promise<Outcome>): Promise<Outcome> {
  const orderId = orderIdOf(web);
  const orderItemId = web.field("orderItemId");
  const quantity = Number(web.field("quantity") || "1");
  const kind = web.field("kind") === "complaint" ? "complaint" : "withdrawal";
  const exchange = web.field("exchangeVariantId");
  const { refundTo, error: choiceError } = refundChoice(web);
  if (choiceError) return rerender({ returnError: { orderItemId, error: choiceError } }, 400);
  try {
    await web.call(returnsRequest, {
      orderId,
      items: [{ orderItemId, quantity: Number.isInteger(quantity) ? quantity : 0 }],
      kind,
      reason: web.field("reason"),
      ...(exchange ? { exchangeVariantId: exchange } : {}),
      ...(refundTo ? { refundTo } : {}),
    });
  } catch (error) {
    // Someone else's order is 404 again when the page is drawn; an unknown line (or card) is shown at the form.
    if (!(error instanceof ToolError) || error.status >= 500) throw error;
    return rerender({ returnError: { orderItemId, error: refusalAt(error, refundTo) } }, error.status === 400 ? 400 : error.status === 404 ? 404 : 422);
  }
  return { redirect: `/orders/${orderId}?notice=return-requested#returns` };
}
