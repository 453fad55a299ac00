// /checkout: the delivery address form (prefilled from the cart or the customer's last address; postal code → city
// lookup enhanced by a script), the delivery method with its parcel shop, an optional billing address, then
// cart.set_shipping_address and cart.checkout, ending on the payment page. Everything posts as a plain form.
import type { z } from "zod";
import { ToolError } from "../../../core/errors.ts";
import cartCheckout from "../../../tools/cart/checkout.ts";
import cartDeliveryOptions from "../../../tools/cart/delivery_options.ts";
import cartSetShippingAddress from "../../../tools/cart/set_shipping_address.ts";
import type { CartSummary } from "../../../tools/cart/schemas.ts";
import userGetLastShipping from "../../../tools/user/get_last_shipping.ts";
import { breadcrumbs, field, notice } from "../../components.ts";
import { formatMoney, html, type Html } from "../../html.ts";
import type { Outcome, View } from "../../page.ts";
import type { StorefrontRequest } from "../site.ts";
import { paymentMethodsPhrase, reason } from "../texts.ts";
import { freeShippingLeft, loadCart, totals } from "./cart.ts";

const FIELDS = ["name", "email", "phone", "address", "zip", "city"] as const;
type Address = Record<(typeof FIELDS)[number], string>;
const BILLING_FIELDS = ["name", "address", "zip", "city"] as const;
type Billing = Record<(typeof BILLING_FIELDS)[number], string>;
type BillingErrors = Partial<Record<`billing.${keyof Billing}`, string>>;
type DeliveryOption = z.output<typeof cartDeliveryOptions.output>[number];

interface FormState {
  values: Address;
  /** The gift card code as typed (kept on a refusal, so the shopper can correct it). */
  giftCard?: string;
  errors: Partial<Record<keyof Address | "giftCardCode" | "delivery", string>> & BillingErrors;
  /** The chosen delivery method and, per pickup method, the chosen parcel shop (unset: the first of each). */
  delivery?: string;
  pickup?: Record<string, string>;
  billingDifferent?: boolean;
  billing?: Billing;
  message?: string;
  /** The cart's discount code no longer applies: offer to order without it. */
  offerDropDiscount?: boolean;
}

const FIELD_ERRORS: Record<keyof Address, string> = {
  name: "Skriv dit fulde navn.",
  email: "Skriv en gyldig e-mailadresse.",
  phone: "Skriv et telefonnummer med 8 cifre (eller lad feltet stå tomt).",
  address: "Skriv vej og husnummer.",
  zip: "Et dansk postnummer har 4 cifre.",
  city: "Skriv byen.",
};

/** What to say next to the gift card field when the card refused (404: no card has that code). */
const GIFT_CARD_ERRORS: Record<string, string> = {
  not_found: "Vi kender ikke den kode. Tjek den og prøv igen.",
  giftcard_expired: "Gavekortet er udløbet.",
  giftcard_insufficient_balance: "Der er ikke flere penge på gavekortet.",
};

export async function checkoutPage(web: StorefrontRequest): Promise<Outcome> {
  const cart = await loadCart(web);
  if (!cart || cart.lines.length === 0) return { redirect: "/cart?notice=empty", status: 303 };
  return checkoutView(web, cart, { values: await prefill(web, cart), errors: {} });
}

async function prefill(web: StorefrontRequest, cart: CartSummary): Promise<Address> {
  const saved = cart.shippingAddress;
  if (saved) return { name: saved.name, email: saved.email, phone: saved.phone ?? "", address: saved.address, zip: saved.zip, city: saved.city };
  const empty: Address = { name: "", email: "", phone: "", address: "", zip: "", city: "" };
  const caller = await web.caller();
  if (!caller.session?.customerId) return empty;
  // Signed in, the shopper has already proven this e-mail (the login code went there): fill it in rather than ask again.
  const [{ customer }, last] = await Promise.all([
    web.deps.sessions.view(caller.session, false),
    web.call(userGetLastShipping, {}).catch((error: unknown) => {
      if (error instanceof ToolError && error.status < 500) return null;
      throw error;
    }),
  ]);
  const signedIn = { ...empty, email: customer?.email ?? "" };
  return last ? { ...signedIn, name: last.name, phone: last.phone ?? "", address: last.address, zip: last.zip, city: last.city } : signedIn;
}

/** The delivery fields of the form: the method's radio, and the parcel-shop select named after each pickup method. */
function postedDelivery(web: StorefrontRequest): { delivery: string; pickup: Record<string, string>; pickupPointId?: string } {
  const delivery = web.field("deliveryMethod");
  const pickupPointId = delivery ? web.field(`pickupPoint-${delivery}`) : "";
  return { delivery, pickup: delivery && pickupPointId ? { [delivery]: pickupPointId } : {}, ...(pickupPointId ? { pickupPointId } : {}) };
}

export async function placeOrder(web: StorefrontRequest): Promise<Outcome> {
  await web.shopper();
  const values = Object.fromEntries(FIELDS.map((name) => [name, web.field(name).trim()])) as Address;
  const giftCard = web.field("giftCardCode").trim();
  const { delivery, pickup, pickupPointId } = postedDelivery(web);
  const billingDifferent = web.field("billingDifferent") === "1";
  const billing = Object.fromEntries(BILLING_FIELDS.map((name) => [name, web.field(`billing-${name}`).trim()])) as Billing;
  let addressSet = false;
  try {
    await web.call(cartSetShippingAddress, { ...values, phone: values.phone || undefined });
    addressSet = true;
    const placed = await web.call(cartCheckout, {
      dropDiscount: web.field("dropDiscount") === "1",
      ...(giftCard ? { giftCardCode: giftCard } : {}),
      ...(delivery ? { deliveryMethodId: delivery } : {}),
      ...(pickupPointId ? { pickupPointId } : {}),
      ...(billingDifferent ? { billingAddress: billing } : {}),
    });
    return paymentRedirect(web, placed.paymentUrl);
  } catch (error) {
    if (!(error instanceof ToolError) || error.status >= 500) throw error;
    if (error.code === "cart_empty") return { redirect: "/cart?notice=empty" };
    if (error.code === "insufficient_stock") return { redirect: "/cart?error=insufficient_stock" };
    const cart = await loadCart(web);
    if (!cart || cart.lines.length === 0) return { redirect: "/cart?notice=empty" };
    const errors: FormState["errors"] = {};
    for (const item of error.errors ?? []) {
      const name = item.path as keyof Address;
      if (name in FIELD_ERRORS) errors[name] = FIELD_ERRORS[name];
      if (item.path === "giftCardCode") errors.giftCardCode = "Skriv koden, som den står på gavekortet (16 tegn).";
      const billingField = /^billingAddress\.(\w+)$/.exec(item.path)?.[1] as keyof Billing | undefined;
      if (billingField && billingField in FIELD_ERRORS) errors[`billing.${billingField}`] = FIELD_ERRORS[billingField];
    }
    if (error.code === "invalid_address") errors[addressSet ? "billing.zip" : "zip"] = "Postnummeret findes ikke, eller byen passer ikke til det.";
    if (["unknown_delivery_method", "pickup_point_required", "invalid_pickup_point"].includes(error.code)) errors.delivery = reason(error);
    // The checkout's only 404 is the gift card: a product gone from the cart is dropped, not refused.
    const cardRefusal = giftCard ? GIFT_CARD_ERRORS[error.code] : undefined;
    if (cardRefusal) errors.giftCardCode = cardRefusal;
    const message = cardRefusal ?? reason(error);
    const state: FormState = { values, giftCard, errors, message, offerDropDiscount: error.code === "discount_unavailable", delivery, pickup, billingDifferent, billing };
    return { ...(await checkoutView(web, cart, state)), status: error.status === 400 ? 400 : 422 };
  }
}

/** The payment link of the order: followed as a path on this shop, or to the payment provider's page. */
function paymentRedirect(web: StorefrontRequest, paymentUrl: string): Outcome {
  const url = new URL(paymentUrl);
  if (url.origin === new URL(web.deps.config.publicBaseUrl).origin) return { redirect: `${url.pathname}${url.search}` };
  return { redirect: paymentUrl, external: true };
}

async function checkoutView(web: StorefrontRequest, cart: CartSummary, state: FormState): Promise<View> {
  const { values, errors } = state;
  const [left, options, money] = await Promise.all([freeShippingLeft(web, cart), web.call(cartDeliveryOptions, /^\d{4}$/.test(values.zip) ? { zip: values.zip } : {}), web.chrome()]);
  return {
    title: "Kassen",
    noindex: true,
    main: html`${breadcrumbs([{ label: "Forside", href: "/" }, { label: "Kurv", href: "/cart" }, { label: "Kassen" }])}
<h1>Kassen</h1>
${state.message ? notice("error", state.message) : ""}
<div class="checkout-layout">
<form class="checkout-form" action="/checkout" method="post" data-goods="${cart.totalDkk - cart.shippingDkk}" data-vat="${money.pricesIncludeVat && cart.vatOere > 0 ? "1" : "0"}" data-currency="${money.currency}">
${web.csrfField()}
<fieldset><legend>Kontakt</legend>
${field({ name: "email", label: "E-mail", type: "email", value: values.email, required: true, autocomplete: "email", hint: "Vi sender ordrebekræftelsen hertil.", error: errors.email, maxlength: 254 })}
${field({ name: "phone", label: "Telefon", type: "tel", value: values.phone, autocomplete: "tel", inputmode: "tel", error: errors.phone, maxlength: 20 })}
</fieldset>
<fieldset><legend>Levering</legend>
${field({ name: "name", label: "Fulde navn", value: values.name, required: true, autocomplete: "name", error: errors.name, maxlength: 200 })}
${field({ name: "address", label: "Adresse", value: values.address, required: true, autocomplete: "street-address", hint: "Vej, husnummer, evt. etage.", error: errors.address, maxlength: 200 })}
<div class="form-row">
${field({ name: "zip", label: "Postnummer", value: values.zip, required: true, autocomplete: "postal-code", inputmode: "numeric", pattern: "[0-9]{4}", maxlength: 4, error: errors.zip, data: { "postal-code": "f-city" } })}
${field({ name: "city", label: "By", value: values.city, required: true, autocomplete: "address-level2", error: errors.city, maxlength: 100 })}
</div>
<p class="hint">Vi leverer i Danmark.</p>
</fieldset>
${options.length ? deliveryFieldset(options, state, money.currency) : ""}
${billingFieldset(state)}
<fieldset><legend>Gavekort</legend>
${field({ name: "giftCardCode", label: "Gavekort eller tilgodebevis", value: state.giftCard ?? "", autocomplete: "off", maxlength: 40, placeholder: "XXXX-XXXX-XXXX-XXXX", hint: "Beløbet på kortet trækkes fra, og resten betaler du på næste side.", error: errors.giftCardCode })}
</fieldset>
${state.offerDropDiscount ? html`<div class="check"><input id="drop-discount" name="dropDiscount" type="checkbox" value="1"><label for="drop-discount">Bestil uden rabatkoden ${cart.discountCode ?? ""}</label></div>` : ""}
<button class="button button-accent button-block" type="submit">Bestil og gå til betaling · ${formatMoney(cart.totalDkk, money.currency)}</button>
<p class="hint">Når du bestiller, accepterer du vores <a href="/info/handelsbetingelser">handelsbetingelser</a>. Sådan behandler vi dine oplysninger: <a href="/info/privatlivspolitik">privatlivspolitik</a>. Du betaler på næste side: ${paymentMethodsPhrase(web.deps)}.</p>
</form>
<aside class="cart-summary" aria-labelledby="checkout-summary">
<h2 id="checkout-summary">Din ordre</h2>
<ul class="summary-lines">${cart.lines.map((line) => html`<li><span>${line.quantity} × ${line.productName}${line.variantAttributes ? html` <span class="hint">(${Object.values(line.variantAttributes).join(" / ")})</span>` : ""}</span><span class="price">${formatMoney(line.lineTotalDkk, money.currency)}</span></li>`)}</ul>
${totals(cart, money, left)}
<p><a href="/cart">Ret kurven</a></p>
</aside>
</div>`,
    scripts: ["checkout.js"],
  };
}

/** Radio buttons for the delivery methods with price and estimate; a pickup method carries its parcel-shop select. */
function deliveryFieldset(options: DeliveryOption[], state: FormState, currency: string): Html {
  const chosen = options.some((option) => option.id === state.delivery) ? state.delivery : options[0]!.id;
  return html`<fieldset class="delivery-methods${state.errors.delivery ? " field-invalid" : ""}"><legend>Leveringsmåde</legend>
${state.errors.delivery ? html`<p class="field-error" id="delivery-error">${state.errors.delivery}</p>` : ""}
${options.map((option) => {
    const id = `delivery-${option.id}`;
    const selectedPoint = state.pickup?.[option.id];
    return html`<div class="delivery-option">
<input id="${id}" name="deliveryMethod" type="radio" value="${option.id}" data-shipping="${option.priceDkk}"${option.id === chosen ? " checked" : ""}>
<label for="${id}"><span class="delivery-name">${option.name}</span> <span class="price">${option.priceDkk === 0 ? "Gratis" : formatMoney(option.priceDkk, currency)}</span>
<span class="hint">Levering på ${option.minDays === option.maxDays ? option.minDays : `${option.minDays}–${option.maxDays}`} hverdage</span></label>
${option.kind === "pickup" && option.pickupPoints.length
      ? html`<div class="field pickup-point"><label for="${id}-point">Pakkeshop</label>
<select id="${id}-point" name="pickupPoint-${option.id}">${option.pickupPoints.map((point) => html`<option value="${point.id}"${point.id === selectedPoint ? " selected" : ""}>${point.name}, ${point.address}, ${point.zip} ${point.city}</option>`)}</select></div>`
      : ""}
</div>`;
  })}
<p class="hint">Pakkeshops nærmest dit postnummer står øverst.</p>
</fieldset>`;
}

/** The billing address: a checkbox and the fields under it (hidden by CSS until it is ticked, so no script is needed). */
function billingFieldset(state: FormState): Html {
  const values = state.billing ?? { name: "", address: "", zip: "", city: "" };
  const errors = state.errors;
  return html`<fieldset class="billing"><legend>Faktura</legend>
<div class="check"><input id="billing-different" name="billingDifferent" type="checkbox" value="1"${state.billingDifferent ? " checked" : ""}><label for="billing-different">Faktureringsadresse er en anden</label></div>
<div class="billing-fields">
${field({ name: "billing-name", label: "Navn på fakturaen", value: values.name, autocomplete: "billing name", error: errors["billing.name"], maxlength: 200 })}
${field({ name: "billing-address", label: "Adresse", value: values.address, autocomplete: "billing street-address", error: errors["billing.address"], maxlength: 200 })}
<div class="form-row">
${field({ name: "billing-zip", label: "Postnummer", value: values.zip, autocomplete: "billing postal-code", inputmode: "numeric", pattern: "[0-9]{4}", maxlength: 4, error: errors["billing.zip"], data: { "postal-code": "f-billing-city" } })}
${field({ name: "billing-city", label: "By", value: values.city, autocomplete: "billing address-level2", error: errors["billing.city"], maxlength: 100 })}
</div>
</div>
</fieldset>`;
}
