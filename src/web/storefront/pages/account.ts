// /account: sign in by a code e-mailed to the customer (user.request_login_code, user.verify_login_code), then the
// customer's own orders by number; sign out (user.sign_out) unbinds the session from the customer and keeps the cart.
import { z } from "zod";
import { ToolError } from "../../../core/errors.ts";
import userListGiftCards from "../../../tools/user/list_gift_cards.ts";
import userListOrders from "../../../tools/user/list_orders.ts";
import requestLoginCode from "../../../tools/user/request_login_code.ts";
import userSignOut from "../../../tools/user/sign_out.ts";
import verifyLoginCode from "../../../tools/user/verify_login_code.ts";
import ordersPendingRefund from "../../../tools/orders/pending_refund.ts";
import { breadcrumbs, emptyState, field, notice } from "../../components.ts";
import { formatMoney, html, type Html } from "../../html.ts";
import { orderRefs } from "../../order-numbers.ts";
import { addressBook, type AddressFormState } from "./address-book.ts";
import { localPath, type Outcome, type View } from "../../page.ts";
import type { StorefrontRequest } from "../site.ts";
import { NOTICES, reason } from "../texts.ts";
import { formatDate, statusLabel } from "./orders.ts";
import { connectedAppsSection } from "./connected-apps-section.ts";

const email = z.email().max(254);

export async function accountPage(web: StorefrontRequest, addressState?: AddressFormState): Promise<View> {
  const caller = await web.caller();
  const flash = NOTICES[web.query("notice")];
  const messages = flash ? notice(flash.kind, flash.text) : html``;
  if (!caller.session?.customerId) return loginView(web, { messages, next: web.query("next") });
  const orders = await web.call(userListOrders, { limit: 50 });
  const [refs, addresses, { currency }, cards, pending, apps] = await Promise.all([
    orderRefs(web, orders.map((order) => order.id)),
    addressBook(web, addressState),
    web.chrome(),
    web.call(userListGiftCards, {}),
    pendingRefunds(web, orders),
    connectedAppsSection(web),
  ]);
  return {
    title: "Din konto",
    noindex: true,
    status: addressState ? 422 : undefined,
    main: html`${breadcrumbs([{ label: "Forside", href: "/" }, { label: "Konto" }])}
<div class="account-head">
<h1>Din konto</h1>
<form action="/account/logout" method="post">${web.csrfField()}<button class="button button-secondary button-small" type="submit">Log ud</button></form>
</div>
${messages}
<h2>Mine ordrer</h2>
${orders.length
  ? html`<ul class="order-list">${orders.map((order) => html`<li class="card order-card">
<div><a class="order-link" href="/orders/${order.id}">Ordre <span class="order-ref">${refs.get(order.id) ?? order.id}</span></a>
<p class="hint">${formatDate(order.createdAt)} · ${order.itemCount} ${order.itemCount === 1 ? "vare" : "varer"}</p></div>
<div class="order-card-side"><span class="tag">${statusLabel(order.status, pending.get(order.id) ?? 0)}</span><span class="price">${formatMoney(order.totalDkk, currency)}</span></div>
</li>`)}</ul>`
  : emptyState("Ingen ordrer endnu", "Når du har bestilt, kan du følge ordren her.", { label: "Se sortimentet", href: "/search" })}
${giftCardSection(cards)}
${addresses}
${apps}`,
  };
}

/** What staff still have to transfer of each refunded order's refunds, so its tag says "Refunderes" as its page does. */
async function pendingRefunds(web: StorefrontRequest, orders: { id: string; status: string }[]): Promise<Map<string, number>> {
  const refunded = orders.filter((order) => order.status === "refunded" || order.status === "partial_refund");
  const sums = await Promise.all(refunded.map((order) => web.call(ordersPendingRefund, { orderId: order.id })));
  return new Map(sums.map((sum) => [sum.orderId, sum.pendingDkk]));
}

/** The shopper's store credit and gift cards with money left: kind, masked code, balance, expiry; none: nothing shown. */
function giftCardSection(cards: Awaited<ReturnType<typeof userListGiftCards.handler>>): Html {
  if (cards.length === 0) return html``;
  return html`<section class="gift-cards" aria-labelledby="gift-cards-title">
<h2 id="gift-cards-title">Tilgodebeviser og gavekort</h2>
<ul class="order-list">${cards.map((card) => html`<li class="card order-card gift-card-row">
<div><strong>${card.source === "store_credit" ? "Tilgodebevis" : "Gavekort"}</strong> <span class="order-ref">${card.code}</span>
<p class="hint">${card.expiresAt ? `Gælder til ${formatDate(card.expiresAt)}` : "Udløber ikke"}</p></div>
<div class="order-card-side"><span class="price">${formatMoney(card.balanceDkk, card.currency)}</span></div>
</li>`)}</ul>
<p class="hint">Koden står i den e-mail, du fik kortet med. Brug den i kassen, eller <a href="/gavekort">se saldoen på et kort</a>.</p>
</section>`;
}

interface LoginOptions {
  messages?: Html;
  error?: string;
  value?: string;
  next?: string;
  status?: number;
  /** The order form's values and error (a guest finding an order by its number). */
  number?: string;
  orderEmail?: string;
  numberError?: string;
}

export function loginView(web: StorefrontRequest, options: LoginOptions): View {
  return {
    title: "Log ind",
    noindex: true,
    status: options.status,
    main: html`<div class="narrow">
<h1>Log ind</h1>
${options.messages ?? ""}
<p>Skriv den e-mail, du handlede med. Vi sender dig en kode på 6 cifre – ingen adgangskode nødvendig.</p>
<form class="card login-form" action="/account/login" method="post">
${web.csrfField()}
${options.next ? html`<input type="hidden" name="next" value="${localPath(options.next, "/account")}">` : ""}
${field({ name: "email", label: "E-mail", type: "email", value: options.value, required: true, autocomplete: "email", error: options.error, maxlength: 254 })}
<button class="button button-block" type="submit">Send mig en kode</button>
</form>
${options.next?.startsWith("/account/oauth/") ? "" : html`<h2>Handlet uden konto?</h2>
<p>Skriv ordrenummeret fra din ordrebekræftelse og den e-mail, du bestilte med. Vi sender en kode til den e-mail, så du kan se, annullere eller returnere ordren.</p>
<form class="card login-form" action="/account/order" method="post">
${web.csrfField()}
${field({ name: "number", label: "Ordrenummer", value: options.number, required: true, inputmode: "numeric", pattern: "#?[0-9]{1,10}", maxlength: 11, placeholder: "Fx 1001", error: options.numberError })}
${field({ name: "email", id: "f-order-email", label: "E-mail", type: "email", value: options.orderEmail, required: true, autocomplete: "email", maxlength: 254 })}
<button class="button button-secondary button-block" type="submit">Find min ordre</button>
</form>`}
</div>`,
  };
}

function codeView(web: StorefrontRequest, address: string, next: string, error?: string): View {
  return {
    title: "Skriv koden",
    noindex: true,
    status: error ? 422 : 200,
    main: html`<div class="narrow">
<h1>Skriv koden</h1>
${error ? notice("error", error) : notice("info", html`Hvis der findes en kunde med <strong>${address}</strong>, har vi sendt en kode på 6 cifre. Den gælder i 10 minutter.`)}
<form class="card login-form" action="/account/verify" method="post">
${web.csrfField()}
<input type="hidden" name="email" value="${address}">
<input type="hidden" name="next" value="${next}">
${field({ name: "code", label: "Kode", required: true, autocomplete: "one-time-code", inputmode: "numeric", pattern: "[0-9]{6}", maxlength: 6 })}
<button class="button button-block" type="submit">Log ind</button>
</form>
<p><a href="/account">Brug en anden e-mail</a></p>
</div>`,
  };
}

/**
 * Sends the code and shows the code form as the answer to the post (not a redirect): the address stays out of the
 * URL, and the next step needs it.
 */
export async function requestCode(web: StorefrontRequest): Promise<View> {
  const given = web.field("email").trim();
  const next = localPath(web.field("next") || "/account", "/account");
  const parsed = email.safeParse(given);
  if (!parsed.success) return loginView(web, { value: given, error: "Skriv en gyldig e-mailadresse.", next, status: 400 });
  const sent = await web.callAs(await web.shopper(), requestLoginCode, { email: parsed.data });
  return codeView(web, sent.email, next);
}

/**
 * POST /account/order: a guest names an order by number and e-mail; the code goes to that e-mail only if the order was
 * placed with it (the answer is the same either way), and signing in leads to the order.
 */
export async function requestOrderCode(web: StorefrontRequest): Promise<View> {
  const number = web.field("number").trim();
  const given = web.field("email").trim();
  const parsedNumber = /^#?(\d{1,10})$/.exec(number);
  const parsedEmail = email.safeParse(given);
  if (!parsedNumber || Number(parsedNumber[1]) < 1 || Number(parsedNumber[1]) > 2_147_483_647 || !parsedEmail.success) {
    return loginView(web, { number, orderEmail: given, numberError: "Skriv ordrenummeret (fx 1001) og en gyldig e-mailadresse.", status: 400 });
  }
  const orderNumber = Number(parsedNumber[1]);
  const sent = await web.callAs(await web.shopper(), requestLoginCode, { email: parsedEmail.data, orderNumber });
  return codeView(web, sent.email, `/orders/number/${orderNumber}`);
}

export async function verifyCode(web: StorefrontRequest): Promise<Outcome> {
  const address = web.field("email").trim().toLowerCase();
  const code = web.field("code").trim();
  const next = localPath(web.field("next") || "/account", "/account");
  const caller = await web.caller();
  if (!caller.session || !email.safeParse(address).success) return loginView(web, { error: "Start forfra: skriv din e-mail.", status: 400 });
  if (!/^\d{6}$/.test(code)) return codeView(web, address, next, "Koden er 6 cifre.");
  try {
    await web.call(verifyLoginCode, { email: address, code });
  } catch (error) {
    if (error instanceof ToolError && error.status === 422) return codeView(web, address, next, reason(error));
    throw error;
  }
  return { redirect: next === "/account" ? "/account?notice=logged-in" : next };
}

export async function signOut(web: StorefrontRequest): Promise<Outcome> {
  const caller = await web.caller();
  if (caller.session) await web.call(userSignOut, {});
  return { redirect: "/account?notice=logged-out" };
}
