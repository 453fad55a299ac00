// /checkout/agent/<session>?expires=…&token=…: the buyer's hand-off page of an agent's checkout session (UCP's
// continue_url). The signed link (src/tools/checkout/handoff.ts) lets whoever holds it open that one session until it
// expires: the lines, totals and delivery choice the agent made, what is still missing, a form for the e-mail, address
// and delivery method, and the order placed from there (checkout.update, checkout.complete with the payment link, so
// the buyer pays as the storefront's shoppers do). The agent then reads the session as completed, with its order.
import { ToolError } from "../../../core/errors.ts";
import completeCheckout from "../../../tools/checkout/complete.ts";
import getCheckout from "../../../tools/checkout/get.ts";
import { checkHandoff, hmacSigner, orderPermalink } from "../../../tools/checkout/handoff.ts";
import type { Message, SessionView } from "../../../tools/checkout/schemas.ts";
import updateCheckout from "../../../tools/checkout/update.ts";
import type { Caller } from "../../../tools/context.ts";
import { field, notice } from "../../components.ts";
import { formatMoney, html } from "../../html.ts";
import type { Outcome, View } from "../../page.ts";
import type { StorefrontRequest } from "../site.ts";
import { paymentMethodsPhrase } from "../texts.ts";

const SESSION_ID = /^chk_[A-Za-z0-9]{10,64}$/;
/** The address holds the link's token: never send it on, not even as a same-origin referrer. */
const HEADERS = { "Referrer-Policy": "no-referrer" };

interface Values {
  email: string;
  phone: string;
  name: string;
  address: string;
  zip: string;
  city: string;
}
type Errors = Partial<Record<keyof Values | "delivery", string>>;

interface FormState {
  values: Values;
  errors: Errors;
  delivery?: string;
  message?: string;
}

/** The caller of a verified link: the shopper as they are, allowed that one session; or the page that refuses the link. */
async function opened(web: StorefrontRequest, id: string): Promise<Caller | View> {
  const check = SESSION_ID.test(id) ? checkHandoff(hmacSigner(web.deps.secret), id, web.query("expires"), web.query("token"), web.deps.now()) : "invalid";
  if (check === "expired") {
    return refusal(410, "Linket er udløbet", "Linket til købet er ikke gyldigt længere. Bed din assistent om at starte købet igen, eller handl direkte i butikken.");
  }
  if (check === "invalid") {
    return refusal(403, "Linket virker ikke", "Linket til købet er ugyldigt. Brug linket præcis som du fik det, eller bed din assistent om et nyt.");
  }
  return { ...(await web.caller()), checkoutGrant: id };
}

function refusal(status: number, title: string, text: string): View {
  return { status, title, noindex: true, headers: HEADERS, main: html`<div class="narrow"><h1>${title}</h1>${notice("error", text)}<p><a href="/">Gå til forsiden</a></p></div>` };
}

export async function agentCheckoutPage(web: StorefrontRequest, id: string): Promise<Outcome> {
  const caller = await opened(web, id);
  if ("main" in caller) return caller;
  const view = await web.callAs(caller, getCheckout, { id });
  return render(web, view, { values: prefill(view), errors: {} });
}

export async function agentCheckoutSubmit(web: StorefrontRequest, id: string): Promise<Outcome> {
  const caller = await opened(web, id);
  if ("main" in caller) return caller;
  const current = await web.callAs(caller, getCheckout, { id });
  const self = `${web.req.path}?expires=${encodeURIComponent(web.query("expires"))}&token=${encodeURIComponent(web.query("token"))}`;
  if (current.status === "completed" || current.status === "canceled") return { redirect: self };
  const values: Values = { email: "", phone: "", name: "", address: "", zip: "", city: "" };
  for (const name of Object.keys(values) as Array<keyof Values>) values[name] = web.field(name).trim();
  const delivery = web.field("delivery");
  const state: FormState = { values, errors: {}, delivery };
  let view: SessionView;
  try {
    view = await web.callAs(caller, updateCheckout, updateInput(current, values, delivery));
  } catch (error) {
    if (!(error instanceof ToolError) || error.status >= 500) throw error;
    // Completed or canceled meanwhile (by the agent, or in another tab): the page says how it ended.
    if (error.code === "checkout_not_modifiable") return { redirect: self };
    for (const item of error.errors ?? []) {
      const name = FIELD_OF[item.path];
      if (name) state.errors[name] = FIELD_ERRORS[name];
    }
    return { ...(await render(web, current, { ...state, message: "Ret de markerede felter." })), status: 400 };
  }
  if (web.field("action") !== "complete") return render(web, view, { ...state, message: undefined });
  if (view.status !== "ready_for_complete") return { ...(await render(web, view, { ...state, message: "Udfyld det, der mangler, før du bestiller." })), status: 422 };
  try {
    const done = await web.callAs(caller, completeCheckout, { id, payment: { handlerId: "payment_link" } });
    const link = new URL(orderPermalink(web.deps.config.publicBaseUrl, hmacSigner(web.deps.secret), done.orderId!));
    return { redirect: `${link.pathname}${link.search}` };
  } catch (error) {
    if (!(error instanceof ToolError) || error.status >= 500) throw error;
    if (error.code === "checkout_not_modifiable") return { redirect: self };
    const fresh = await web.callAs(caller, getCheckout, { id });
    const message = error.code === "insufficient_stock" ? "Der er desværre ikke nok på lager længere." : "Købet kunne ikke gennemføres. Tjek oplysningerne og prøv igen.";
    return { ...(await render(web, fresh, { ...state, message })), status: 422 };
  }
}

const FIELD_ERRORS: Record<keyof Values, string> = {
  email: "Skriv en gyldig e-mailadresse.",
  phone: "Skriv et telefonnummer (cifre, evt. med + foran).",
  name: "Skriv dit fulde navn.",
  address: "Skriv vej og husnummer.",
  zip: "Skriv postnummeret.",
  city: "Skriv byen.",
};
/** checkout.update's input paths as the form's fields. */
const FIELD_OF: Record<string, keyof Values> = {
  "buyer.email": "email",
  "buyer.phone": "phone",
  "destination.name": "name",
  "destination.street": "address",
  "destination.postalCode": "zip",
  "destination.city": "city",
};

/** The change the form asks for: what the buyer typed over what the agent gave; the lines stay the agent's. */
function updateInput(current: SessionView, values: Values, delivery: string) {
  const buyer = { ...(current.buyer ?? {}), ...(values.email ? { email: values.email } : {}), ...(values.phone ? { phone: values.phone } : {}) };
  const given = current.fulfillment.destination;
  const typed = values.address || values.zip || values.city || values.name;
  const destination = typed
    ? {
        country: given?.country ?? "DK",
        ...(values.name ? { name: values.name } : {}),
        ...(values.address ? { street: values.address } : {}),
        ...(values.zip ? { postalCode: values.zip } : {}),
        ...(values.city ? { city: values.city } : {}),
      }
    : undefined;
  const option = current.fulfillment.options.some((entry) => entry.id === delivery) ? delivery : undefined;
  return { id: current.id, ...(Object.keys(buyer).length ? { buyer } : {}), ...(destination ? { destination } : {}), ...(option ? { fulfillmentOptionId: option } : {}) };
}

function prefill(view: SessionView): Values {
  const destination = view.fulfillment.destination;
  const buyerName = [view.buyer?.firstName, view.buyer?.lastName].filter(Boolean).join(" ");
  return {
    email: view.buyer?.email ?? "",
    phone: view.buyer?.phone ?? "",
    name: destination?.name ?? buyerName,
    address: destination?.street ?? "",
    zip: destination?.postalCode ?? "",
    city: destination?.city ?? "",
  };
}

/** What is still missing, in the buyer's words. */
function missing(message: Message): string {
  if (message.code === "invalid_address") return "Postnummeret findes ikke, eller byen passer ikke til det.";
  if (message.code === "out_of_stock") return "En af varerne er ikke på lager i det ønskede antal.";
  if (message.code === "item_unavailable") return "En af varerne er ikke længere til salg.";
  if (message.path === "buyer.email") return "Din e-mailadresse, så vi kan sende ordrebekræftelsen.";
  if (message.path === "fulfillment.destination") return "Leveringsadressen: vej og husnummer, postnummer og by.";
  if (message.path === "fulfillment.selectedOptionId") return "Leveringsmåden.";
  if (message.path === "lines") return "Varer: købet er tomt.";
  return "Oplysninger til købet.";
}

const TOTAL_LABELS: Record<string, string> = { subtotal: "Varer", discount: "Rabat", fulfillment: "Fragt", total: "I alt" };

async function render(web: StorefrontRequest, view: SessionView, state: FormState): Promise<View> {
  const { currency } = view;
  const agent = view.agent.name ?? "Din AI-assistent";
  const total = view.totals.find((entry) => entry.type === "total")?.amount ?? 0;
  const tax = view.totals.find((entry) => entry.type === "tax");
  const summary = html`<aside class="cart-summary" aria-labelledby="handoff-summary">
<h2 id="handoff-summary">Din ordre</h2>
<ul class="summary-lines">${view.lines.map((line) => html`<li><span>${line.quantity} × ${line.title}</span><span class="price">${formatMoney(line.subtotal, currency)}</span></li>`)}</ul>
<dl class="totals">${view.totals
    .filter((entry) => entry.type !== "tax")
    .map((entry) => html`<div${entry.type === "total" ? html` class="total"` : entry.type === "discount" ? html` class="discount"` : ""}><dt>${TOTAL_LABELS[entry.type]}</dt><dd>${entry.type === "discount" ? "−" : ""}${formatMoney(Math.abs(entry.amount), currency)}</dd></div>`)}
${tax ? html`<div class="vat"><dt>Heraf moms</dt><dd>${formatMoney(tax.amount, currency)}</dd></div>` : ""}</dl>
${view.discounts.applied.length ? html`<p class="hint">Rabatkode: ${view.discounts.applied.map((entry) => entry.code).join(", ")}</p>` : ""}
</aside>`;
  const title = "Gennemfør dit køb";
  if (view.status === "completed" || view.status === "canceled") {
    const done = view.status === "completed";
    const link = done && view.orderId ? new URL(orderPermalink(web.deps.config.publicBaseUrl, hmacSigner(web.deps.secret), view.orderId)) : null;
    return {
      status: done ? 200 : 410,
      title: done ? "Købet er gennemført" : "Købet er lukket",
      noindex: true,
      headers: HEADERS,
      main: html`<div class="narrow"><h1>${done ? "Købet er gennemført" : "Købet er lukket"}</h1>
${done ? notice("success", "Ordren er afgivet.") : notice("error", "Købet er annulleret eller udløbet. Bed din assistent om at starte det igen.")}
${link ? html`<p><a class="button button-accent" href="${link.pathname}${link.search}">Se ordren og betalingen</a></p>` : html`<p><a href="/">Gå til forsiden</a></p>`}</div>`,
    };
  }
  const gaps = view.messages.filter((message) => message.type === "error");
  const { values, errors } = state;
  const self = `${web.req.path}?expires=${encodeURIComponent(web.query("expires"))}&token=${encodeURIComponent(web.query("token"))}`;
  const options = view.fulfillment.options;
  const chosen = options.some((option) => option.id === state.delivery) ? state.delivery : view.fulfillment.selectedOptionId;
  return {
    title,
    noindex: true,
    headers: HEADERS,
    main: html`<h1>${title}</h1>
<p class="lead">${agent} har lagt dette køb klar til dig. Tjek det, udfyld det, der mangler, og bestil.</p>
${state.message ? notice("error", state.message) : ""}
${gaps.length
      ? html`<section class="notice notice-info handoff-missing" aria-labelledby="handoff-missing"><h2 id="handoff-missing">Det mangler</h2><ul>${[...new Set(gaps.map(missing))].map((text) => html`<li>${text}</li>`)}</ul></section>`
      : notice("success", "Alt er på plads. Du kan bestille.")}
<div class="checkout-layout handoff-layout">
<form class="checkout-form" action="${self}" method="post">
${web.csrfField()}
<fieldset><legend>Kontakt</legend>
${field({ name: "email", label: "E-mail", type: "email", value: values.email, required: true, autocomplete: "email", hint: "Vi sender ordrebekræftelsen hertil.", error: errors.email, maxlength: 254 })}
${field({ name: "phone", label: "Telefon", type: "tel", value: values.phone, autocomplete: "tel", inputmode: "tel", error: errors.phone, maxlength: 30 })}
</fieldset>
<fieldset><legend>Levering</legend>
${field({ name: "name", label: "Fulde navn", value: values.name, required: true, autocomplete: "name", error: errors.name, maxlength: 200 })}
${field({ name: "address", label: "Adresse", value: values.address, required: true, autocomplete: "street-address", hint: "Vej, husnummer, evt. etage.", error: errors.address, maxlength: 200 })}
<div class="form-row">
${field({ name: "zip", label: "Postnummer", value: values.zip, required: true, autocomplete: "postal-code", inputmode: "numeric", maxlength: 20, error: errors.zip })}
${field({ name: "city", label: "By", value: values.city, required: true, autocomplete: "address-level2", error: errors.city, maxlength: 100 })}
</div>
</fieldset>
<fieldset class="delivery-methods"><legend>Leveringsmåde</legend>
${options.length
      ? options.map(
          (option) => html`<div class="delivery-option">
<input id="delivery-${option.id}" name="delivery" type="radio" value="${option.id}"${option.id === chosen ? " checked" : ""}>
<label for="delivery-${option.id}"><span class="delivery-name">${option.title}</span> <span class="price">${option.amount === 0 ? "Gratis" : formatMoney(option.amount, currency)}</span></label>
</div>`,
        )
      : html`<p class="hint">Leveringsmåderne vises, når adressen er gemt.</p>`}
</fieldset>
<div class="handoff-actions">
<button class="button button-secondary" type="submit" name="action" value="save">Gem og opdatér prisen</button>
<button class="button button-accent button-block" type="submit" name="action" value="complete">Bestil og gå til betaling · ${formatMoney(total, currency)}</button>
</div>
<p class="hint">Når du bestiller, accepterer du vores <a href="/info/handelsbetingelser">handelsbetingelser</a>. Sådan behandler vi dine oplysninger: <a href="/info/privatlivspolitik">privatlivspolitik</a>. Du betaler på næste side: ${paymentMethodsPhrase(web.deps)}.</p>
</form>
${summary}
</div>`,
  };
}
