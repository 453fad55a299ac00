// /fortryd: the withdrawal function (Consumer Rights Directive art. 11a, forbrugeraftaleloven), no account and no
// script needed. Step 1 names the order (number, e-mail, name; the lines too when this browser's session owns the
// order), step 2 is a separate "Bekræft fortrydelse", then a receipt of what was declared and when
// (returns.withdraw). Neither step tells whether the order exists: that is only in the e-mail to the order's address.
import { z } from "zod";
import { ToolError } from "../../../core/errors.ts";
import ordersGet from "../../../tools/orders/get.ts";
import ordersGetNumber from "../../../tools/orders/get_number.ts";
import { parseOrderRef } from "../../../tools/shared/order-numbers.ts";
import { danishDateTime } from "../../../tools/returns/withdrawal-mail.ts";
import returnsWithdraw from "../../../tools/returns/withdraw.ts";
import { WITHDRAWAL_DAYS } from "../../../tools/returns/deadlines.ts";
import { breadcrumbs, field, notice } from "../../components.ts";
import { html, type Html } from "../../html.ts";
import type { View } from "../../page.ts";
import type { StorefrontRequest } from "../site.ts";

interface Line {
  orderItemId: string;
  productName: string;
  /** Units ordered (the most that may be withdrawn). */
  ordered: number;
  /** Units chosen (0: not withdrawn). */
  quantity: number;
}

interface Form {
  number: string;
  email: string;
  name: string;
  /** Only for an order this session owns: its lines to choose among. */
  orderId?: string;
  lines: Line[];
}

const email = z.email().max(254);
const TITLE = "Fortryd købet";
const crumbs = breadcrumbs([{ label: "Forside", href: "/" }, { label: TITLE }]);

/** The order's lines when the shopper's session may read the order (signed in, or placed it); else none. */
async function ownLines(web: StorefrontRequest, orderId: string): Promise<{ order: { number: number; email: string; name: string }; lines: Line[] } | null> {
  if (!/^[\w-]{1,100}$/.test(orderId)) return null;
  const caller = await web.caller();
  if (!caller.session) return null;
  try {
    const [order, { number }] = await Promise.all([web.call(ordersGet, { orderId }), web.call(ordersGetNumber, { orderId })]);
    const lines = order.items.map((item) => ({ orderItemId: item.id, productName: item.productName, ordered: item.quantity, quantity: item.quantity }));
    return { order: { number, email: order.email, name: order.shippingName }, lines };
  } catch (error) {
    if (error instanceof ToolError && error.status < 500) return null;
    throw error;
  }
}

/** GET /fortryd (?nr=<number> from an order e-mail, ?ordre=<id> from the order page). */
export async function withdrawalPage(web: StorefrontRequest): Promise<View> {
  await web.startSession();
  const own = web.query("ordre") ? await ownLines(web, web.query("ordre")) : null;
  const form: Form = own
    ? { number: String(own.order.number), email: own.order.email, name: own.order.name, orderId: web.query("ordre"), lines: own.lines }
    : { number: web.query("nr").replace(/\D/g, "").slice(0, 10), email: "", name: "", lines: [] };
  return stepOne(web, form);
}

function stepOne(web: StorefrontRequest, form: Form, errors: Partial<Record<"number" | "email" | "name" | "lines", string>> = {}): View {
  const failed = Object.keys(errors).length > 0;
  return {
    title: TITLE,
    noindex: true,
    status: failed ? 400 : 200,
    main: html`${crumbs}<div class="narrow withdrawal">
<h1>Fortryd købet</h1>
${failed ? notice("error", "Ret de markerede felter.") : ""}
<p>Du kan fortryde dit køb i ${WITHDRAWAL_DAYS} dage efter, at du har modtaget varerne – uden at give en grund. Du behøver ikke en konto.</p>
<p class="hint">Trin 1 af 2: Hvilken ordre vil du fortryde?</p>
<form class="card withdrawal-form" action="/fortryd" method="post">
${web.csrfField()}
${form.orderId ? html`<input type="hidden" name="ordre" value="${form.orderId}">` : ""}
${field({ name: "number", label: "Ordrenummer", value: form.number, required: true, inputmode: "numeric", pattern: "#?[0-9]{1,10}", maxlength: 11, placeholder: "Fx 1001", error: errors.number })}
${field({ name: "email", label: "E-mail, du bestilte med", type: "email", value: form.email, required: true, autocomplete: "email", maxlength: 254, error: errors.email })}
${field({ name: "name", label: "Navn på ordren", value: form.name, required: true, autocomplete: "name", maxlength: 200, error: errors.name })}
${form.lines.length ? lineChooser(form.lines, errors.lines) : html`<p class="hint">Fortrydelsen gælder hele ordren. Vil du kun sende nogle af varerne retur, så skriv det til kundeservice, eller åbn ordren under Mine ordrer.</p>`}
<button class="button button-block" type="submit">Fortsæt</button>
</form>
</div>`,
  };
}

/** How many units of each line go back (all by default); a line set to 0 stays with the shopper. */
function lineChooser(lines: Line[], error?: string): Html {
  return html`<fieldset class="withdrawal-lines"><legend>Hvilke varer fortryder du?</legend>
${error ? html`<p class="field-error">${error}</p>` : ""}
${lines.map((line) => html`<div class="field"><label for="l-${line.orderItemId}">${line.productName}</label>
<select id="l-${line.orderItemId}" name="line:${line.orderItemId}">${Array.from({ length: line.ordered + 1 }, (_, n) => html`<option value="${n}"${n === line.quantity ? " selected" : ""}>${n} af ${line.ordered}</option>`)}</select></div>`)}
</fieldset>`;
}

/** The posted form, re-read for step 2 and the confirmation (lines only for an order this session owns). */
async function readForm(web: StorefrontRequest): Promise<{ form: Form; errors: Partial<Record<"number" | "email" | "name" | "lines", string>> }> {
  const orderId = web.field("ordre");
  const own = orderId ? await ownLines(web, orderId) : null;
  const lines = (own?.lines ?? []).map((line) => {
    const n = Number(web.field(`line:${line.orderItemId}`));
    return { ...line, quantity: Number.isInteger(n) && n >= 0 && n <= line.ordered ? n : line.ordered };
  });
  const form: Form = { number: web.field("number").trim(), email: web.field("email").trim(), name: web.field("name").trim().slice(0, 200), orderId: own ? orderId : undefined, lines };
  const errors: Partial<Record<"number" | "email" | "name" | "lines", string>> = {};
  if (parseOrderRef(form.number) === null) errors.number = "Skriv ordrenummeret fra din ordrebekræftelse (fx 1001).";
  if (!email.safeParse(form.email).success) errors.email = "Skriv en gyldig e-mailadresse.";
  if (!form.name) errors.name = "Skriv navnet, ordren er bestilt i.";
  if (lines.length && lines.every((line) => line.quantity === 0)) errors.lines = "Vælg mindst én vare.";
  return { form, errors };
}

/** Whether the declaration leaves some units with the shopper (else it is the whole order). */
const isPartial = (form: Form) => form.lines.some((line) => line.quantity < line.ordered);

function declared(form: Form): Html {
  if (!isPartial(form)) return html`<p class="withdrawal-declared">Hele ordren.</p>`;
  return html`<ul class="withdrawal-declared">${form.lines.filter((line) => line.quantity > 0).map((line) => html`<li>${line.quantity} × ${line.productName}</li>`)}</ul>`;
}

/** POST /fortryd: step 1 checked; step 2 asks for the separate confirmation, with the answers carried along. */
export async function withdrawalReview(web: StorefrontRequest): Promise<View> {
  const { form, errors } = await readForm(web);
  if (Object.keys(errors).length) return stepOne(web, form, errors);
  return {
    title: "Bekræft fortrydelse",
    noindex: true,
    main: html`${crumbs}<div class="narrow withdrawal">
<h1>Bekræft fortrydelse</h1>
<p class="hint">Trin 2 af 2</p>
<div class="card">
<p>Jeg fortryder købet (ordre <strong>#${String(parseOrderRef(form.number))}</strong>) af:</p>
${declared(form)}
<p>Navn: ${form.name}<br>E-mail: ${form.email}</p>
</div>
<p>Når du trykker "Bekræft fortrydelse", har du fortrudt købet. Passer oplysningerne til ordren, får du en kvittering på e-mail.</p>
<form class="withdrawal-form" action="/fortryd/bekraeft" method="post">
${web.csrfField()}
<input type="hidden" name="number" value="${form.number}">
<input type="hidden" name="email" value="${form.email}">
<input type="hidden" name="name" value="${form.name}">
${form.orderId ? html`<input type="hidden" name="ordre" value="${form.orderId}">` : ""}
${form.lines.map((line) => html`<input type="hidden" name="line:${line.orderItemId}" value="${line.quantity}">`)}
<button class="button button-accent button-block" type="submit">Bekræft fortrydelse</button>
</form>
<p><a href="/fortryd${form.orderId ? `?ordre=${form.orderId}` : ""}">← Ret oplysningerne</a></p>
</div>`,
  };
}

/** POST /fortryd/bekraeft: the declaration (returns.withdraw) and its receipt, the same whatever it matched. */
export async function withdrawalConfirm(web: StorefrontRequest): Promise<View> {
  const { form, errors } = await readForm(web);
  if (Object.keys(errors).length) return stepOne(web, form, errors);
  const lines = isPartial(form) ? form.lines.filter((line) => line.quantity > 0).map((line) => ({ orderItemId: line.orderItemId, quantity: line.quantity })) : undefined;
  const orderNumber = parseOrderRef(form.number)!;
  const answer = await web.callAs(await web.caller(), returnsWithdraw, { orderNumber, email: form.email, name: form.name, ...(lines && { lines }) });
  return {
    title: "Fortrydelse modtaget",
    noindex: true,
    main: html`${crumbs}<div class="narrow withdrawal">
<h1>Vi har modtaget din fortrydelse</h1>
${notice("success", html`Modtaget <strong class="withdrawal-received">${danishDateTime(new Date(answer.receivedAt))}</strong>.`)}
<div class="card withdrawal-receipt">
<p>Jeg fortryder købet (ordre <strong>#${String(orderNumber)}</strong>) af:</p>
${declared(form)}
<p>Navn: ${form.name}<br>E-mail: ${form.email}</p>
</div>
<p>Passer oplysningerne til en ordre, sender vi en kvittering til ordrens e-mailadresse med det, du har erklæret, og vejledning i at sende varerne retur. Pengene refunderer vi, når varerne er kommet retur til os.</p>
<p>Kommer der ingen e-mail inden for en time, så kontrollér ordrenummer, e-mail og navn og prøv igen – eller kontakt kundeservice.</p>
<p><a href="/">Til forsiden</a></p>
</div>`,
  };
}
