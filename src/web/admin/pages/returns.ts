// /admin/returns: the refunds owed by a deadline (overdue ones marked), the returns by status, and one return with the
// forms to approve, reject or book it received (refund or exchange); everything goes through the returns.* tools.
import getSaleTerms from "../../../tools/settings/get_sale_terms.ts";
import type { z } from "zod";
import { NotFound } from "../../../core/errors.ts";
import { orderRef } from "../../../tools/shared/order-numbers.ts";
import approveReturn from "../../../tools/returns/approve.ts";
import getReturn from "../../../tools/returns/get.ts";
import listReturns from "../../../tools/returns/list.ts";
import receiveReturn from "../../../tools/returns/receive.ts";
import rejectReturn from "../../../tools/returns/reject.ts";
import releaseExchange from "../../../tools/returns/release_exchange.ts";
import { RETURN_STATUSES, returnReference, type ReturnStatus } from "../../../tools/returns/schemas.ts";
import { breadcrumbs, emptyState, field as input } from "../../components.ts";
import { html, type Html, type HtmlValue } from "../../html.ts";
import type { Outcome, View } from "../../page.ts";
import { checkbox, facts, formOpen, money, pageHead, refundFields, submit, table, textarea } from "../components.ts";
import { refundDestination, when } from "../forms.ts";
import type { AdminRequest } from "../site.ts";

export type Return = z.output<typeof listReturns.output>[number];

export const RETURN_STATUS_TEXT: Record<ReturnStatus, string> = {
  requested: "Anmodet",
  approved: "Godkendt, venter på varen",
  received: "Modtaget",
  refunded: "Refunderet",
  rejected: "Afvist",
};

const checkId = (id: string) => {
  if (!/^[\w-]{1,100}$/.test(id)) throw new NotFound(`No return "${id}".`);
};

/** What kind of return, as staff say it. */
function kindText(ret: Return): string {
  const kind = ret.kind === "withdrawal" ? "Fortrydelse" : "Reklamation";
  return ret.exchangeVariantId ? `${kind}, ombytning` : kind;
}

const itemsText = (ret: Return) => ret.items.map((item) => `${item.quantity} × ${item.productName}`).join(", ");
const overdue = (ret: Return, now: number) => ret.status === "approved" && ret.refundDueBy !== null && Date.parse(ret.refundDueBy) < now;

/** The refund deadline, marked when it has passed. */
function deadline(ret: Return, now: number): HtmlValue {
  if (!ret.refundDueBy) return "—";
  return overdue(ret, now) ? html`<strong class="overdue">${when(ret.refundDueBy)} · overskredet</strong>` : when(ret.refundDueBy);
}

/** Rows of a returns table: reference, order, kind, items, opened, deadline. */
export function returnRows(returns: Return[], now = Date.now()): HtmlValue[][] {
  return returns.map((ret) => [
    html`<a href="/admin/returns/${ret.returnId}"><code>${returnReference({ id: ret.returnId })}</code></a>`,
    html`<a href="/admin/orders/${ret.orderId}">${orderRef(ret.orderNumber)}</a>`,
    kindText(ret),
    itemsText(ret),
    when(ret.createdAt),
    deadline(ret, now),
  ]);
}

function statusOf(web: AdminRequest): ReturnStatus {
  const wanted = web.query("status");
  return (RETURN_STATUSES as readonly string[]).includes(wanted ?? "") ? (wanted as ReturnStatus) : "requested";
}

export async function returnsPage(web: AdminRequest): Promise<View> {
  const status = statusOf(web);
  const [due, returns, { returnDays }] = await Promise.all([web.call(listReturns, { status: "approved", limit: 100 }), web.call(listReturns, { status, limit: 100 }), web.may(getSaleTerms) ? web.call(getSaleTerms, {}) : { returnDays: null }]);
  const now = Date.now();
  due.sort((a, b) => Date.parse(a.refundDueBy ?? "") - Date.parse(b.refundDueBy ?? ""));
  const late = due.filter((ret) => overdue(ret, now)).length;
  const head = ["Retur", "Ordre", "Type", "Varer", "Oprettet", "Refusion senest"];
  const tabs = html`<nav class="tabs" aria-label="Status">${RETURN_STATUSES.map((s) =>
    s === status ? html`<strong aria-current="page">${RETURN_STATUS_TEXT[s]}</strong> ` : html`<a href="/admin/returns${s === "requested" ? "" : `?status=${s}`}">${RETURN_STATUS_TEXT[s]}</a> `,
  )}</nav>`;
  return {
    title: "Returneringer",
    main: html`${pageHead("Returneringer", { lead: `Fortrydelser (${returnDays ? `${returnDays} dage ` : ""}fra levering) og reklamationer (24 måneder). Pengene skal tilbage senest 14 dage efter godkendelsen.` })}
<section class="card" aria-labelledby="due"><h2 id="due">Refusioner med frist${late ? html` <span class="tag tag-bad">${late} overskredet</span>` : ""}</h2>
${due.length ? table("Godkendte returneringer efter frist", head, returnRows(due, now)) : html`<p class="hint">Ingen godkendte returneringer venter på varen.</p>`}
</section>
${tabs}
${returns.length ? table(RETURN_STATUS_TEXT[status], head, returnRows(returns, now)) : emptyState("Ingen returneringer", status === "requested" ? "Der er ingen nye anmodninger." : "Der er ingen her endnu.")}`,
  };
}

/** Where the shopper asked the refund to go, in Danish. */
export function askedText(ret: Pick<Return, "refundTo" | "refundGiftCard">): string {
  if (ret.refundTo === "store_credit") return "tilgodebevis";
  if (ret.refundTo === "gift_card") return `gavekort ${ret.refundGiftCard ?? ""}`.trimEnd();
  return "samme betalingsmiddel";
}

function actions(web: AdminRequest, ret: Return): Html {
  const base = `/admin/returns/${ret.returnId}`;
  if (ret.status === "requested") {
    return html`<section class="card"><h2>Godkend</h2>
<p class="hint">Kunden får en mail med returadressen, returreferencen og hvad der skal i pakken.${ret.exchangeVariantId ? " Den nye variant reserveres på lageret." : ""}</p>
${formOpen(web, `${base}/approve`)}${submit(web, approveReturn, "Godkend returneringen")}</form>
</section>
<section class="card"><h2>Afvis</h2>
${formOpen(web, `${base}/reject`)}
${textarea({ name: "reason", label: "Begrundelse til kunden", required: true, maxlength: 1000, rows: 3 })}
${submit(web, rejectReturn, "Afvis", "secondary")}
</form></section>`;
  }
  if (ret.status !== "approved") return html``;
  return html`<section class="card"><h2>Modtag varen</h2>
<p class="hint">${ret.exchangeVariantId ? "Der oprettes en erstatningsordre med den nye variant (fri fragt); en prisforskel betales eller refunderes." : "Beløbet refunderes med det samme, og kunden får besked på mail."}</p>
${formOpen(web, `${base}/receive`, html` data-confirm="Bogfør varen som modtaget${ret.exchangeVariantId ? "" : " og refundér"}?"`)}
${refundFields(askedText(ret))}
${input({ name: "refundAccount", label: "Reg.nr. og kontonr.", maxlength: 100, hint: "Kun ved bankoverførsel, hvis kunden har oplyst dem." })}
${checkbox({ name: "restock", label: "Læg varerne tilbage på lager", checked: ret.kind === "withdrawal", hint: "Fjern fluebenet for defekte varer." })}
${submit(web, receiveReturn, "Bogfør som modtaget")}
</form></section>${ret.exchangeVariantId && overdue(ret, Date.now()) ? releaseForm(web, base) : ""}`;
}

/** An overdue exchange whose parcel never came: give its reserved units back to stock and close it. */
function releaseForm(web: AdminRequest, base: string): Html {
  return html`<section class="card"><h2>Pakken er ikke kommet</h2>
<p class="hint">Fristen er overskredet. Den reserverede vare lægges tilbage på lager, returneringen afsluttes, og kunden får besked på mail.</p>
${formOpen(web, `${base}/release`, html` data-confirm="Frigiv den reserverede vare og afslut ombytningen?"`)}
${submit(web, releaseExchange, "Frigiv reserveret vare", "secondary")}
</form></section>`;
}

export async function returnPage(web: AdminRequest, id: string): Promise<View> {
  checkId(id);
  const [ret, currency] = await Promise.all([web.call(getReturn, { returnId: id }), web.currency()]);
  const reference = returnReference({ id: ret.returnId });
  const now = Date.now();
  return {
    title: `Retur ${reference}`,
    main: html`${breadcrumbs([{ label: "Returneringer", href: "/admin/returns" }, { label: reference }])}
${pageHead(`Retur ${reference}`, { lead: html`${kindText(ret)} · <span class="tag${overdue(ret, now) ? " tag-bad" : ""}">${RETURN_STATUS_TEXT[ret.status]}</span> · ordre <a href="/admin/orders/${ret.orderId}">${orderRef(ret.orderNumber)}</a>` })}
<div class="split">
<div>
<section class="card"><h2>Varer</h2>
${table("Returnerede varer", ["Vare", "Antal"], ret.items.map((item) => [item.productName, item.quantity]), [1])}
${facts(([
  ["Kundens begrundelse", html`<span class="pre-wrap">${ret.reason}</span>`],
  ["Afvist fordi", ret.rejectReason],
  ["Ønsket variant", ret.exchangeVariantId ? html`<code>${ret.exchangeVariantId}</code>` : null],
  ["Erstatningsordre", ret.replacementOrderId ? html`<a href="/admin/orders/${ret.replacementOrderId}"><code>${ret.replacementOrderId}</code></a>` : null],
  ["Refunderet", ret.refundDkk === null ? null : money(ret.refundDkk, currency)],
  [ret.refundDkk === null ? "Refunderes til" : "Refunderet til", ret.refundTo ? askedText(ret) : null],
  ["Refusion senest", ret.refundDueBy ? deadline(ret, now) : null],
  ["Oprettet", when(ret.createdAt)],
  ["Senest ændret", when(ret.updatedAt)],
] satisfies Array<[string, HtmlValue]>).filter(([, value]) => value !== null))}
</section>
</div>
<div>${actions(web, ret)}</div>
</div>`,
  };
}

export async function returnAction(web: AdminRequest, id: string, action: string): Promise<Outcome> {
  checkId(id);
  const back = `/admin/returns/${id}`;
  switch (action) {
    case "approve":
      return web.act(back, async () => {
        await web.call(approveReturn, { returnId: id });
        return "Returneringen er godkendt, og kunden har fået returvejledningen på mail.";
      });
    case "reject":
      return web.act(back, async () => {
        await web.call(rejectReturn, { returnId: id, reason: web.field("reason") });
        return "Returneringen er afvist, og kunden har fået begrundelsen på mail.";
      });
    case "release":
      return web.act(back, async () => {
        await web.call(releaseExchange, { returnId: id });
        return "Den reserverede vare er lagt tilbage på lager, og kunden har fået besked på mail.";
      });
    case "receive":
      return web.act(back, async () => {
        const account = web.field("refundAccount").trim();
        const refundTo = refundDestination(web.field("refundTo"), web.field("refundCard"));
        const ret = await web.call(receiveReturn, { returnId: id, ...(refundTo ? { refundTo } : {}), restock: web.field("restock") === "on", ...(account ? { refundAccount: account } : {}) });
        if (ret.replacementOrderId) return `Varen er modtaget; erstatningsordren ${ret.replacementOrderId} er oprettet.`;
        return ret.refundDkk ? `Varen er modtaget, og ${money(ret.refundDkk, await web.currency())} er refunderet.` : "Varen er modtaget; der var intet at refundere.";
      });
  }
  throw new NotFound(`No return action "${action}".`);
}
