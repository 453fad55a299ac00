// /admin/credit: gift cards and store credit (codes by their last four symbols only), a form to issue a card (its code
// shown once, in the answer to the form), and the bank-transfer refunds still to pay out with "Markér som udbetalt".
import type { z } from "zod";
import { NotFound } from "../../../core/errors.ts";
import issueCard from "../../../tools/giftcards/issue.ts";
import listCards from "../../../tools/giftcards/list.ts";
import completeRefundTask from "../../../tools/orders/complete_refund_task.ts";
import listRefundTasks from "../../../tools/orders/list_refund_tasks.ts";
import { breadcrumbs, emptyState, field as input } from "../../components.ts";
import { formatMoney, html, type Html, type HtmlValue } from "../../html.ts";
import type { Outcome, View } from "../../page.ts";
import { actionButton, formOpen, money, needs, pageHead, submit, table, unit } from "../components.ts";
import { kroner, optional, when } from "../forms.ts";
import { orderRefs } from "../../order-numbers.ts";
import type { AdminRequest } from "../site.ts";

type Card = z.output<typeof listCards.output>[number];
type Task = z.output<typeof listRefundTasks.output>[number];

const SOURCE_TEXT: Record<Card["source"], string> = { issued: "Udstedt", store_credit: "Tilgodebevis", purchase: "Købt" };

/** An order by the number people know it by (#1001), its id only when the number cannot be read. */
const orderLink = (orderId: string | null, refs: Map<string, string> = new Map()): HtmlValue =>
  orderId ? html`<a href="/admin/orders/${orderId}">${refs.get(orderId) ?? html`<code>${orderId}</code>`}</a>` : "";

function cardRow(card: Card, currency: string, refs: Map<string, string>): HtmlValue[] {
  return [html`<code class="code">${card.code}</code>`, money(card.balanceDkk, currency), money(card.initialDkk, currency), SOURCE_TEXT[card.source], card.customerEmail ?? "", orderLink(card.orderId, refs), when(card.expiresAt)];
}

function taskRow(web: AdminRequest, task: Task, currency: string, refs: Map<string, string>): HtmlValue[] {
  return [
    orderLink(task.orderId, refs),
    task.email,
    money(task.amountDkk, currency),
    task.account ?? html`<span class="hint">Ikke oplyst: spørg kunden</span>`,
    when(task.createdAt),
    actionButton(web, completeRefundTask, {
      action: `/admin/credit/refund-tasks/${task.taskId}/complete`,
      label: "Markér som udbetalt",
      small: true,
      confirm: `Er ${money(task.amountDkk, currency)} overført til kunden?`,
    }),
  ];
}

async function cardsSection(web: AdminRequest): Promise<Html> {
  if (!web.may(listCards)) return html`<section class="card"><h2>Gavekort og tilgodebeviser</h2><p class="hint">${needs(listCards)}</p></section>`;
  const email = web.query("email").trim().slice(0, 254);
  const [cards, currency] = await Promise.all([web.call(listCards, { limit: 100, ...(email.includes("@") ? { customerEmail: email } : {}) }), web.currency()]);
  const refs = await orderRefs(web, cards.flatMap((card) => (card.orderId ? [card.orderId] : [])));
  return html`<section class="card"><h2>Gavekort og tilgodebeviser</h2>
<form method="get" action="/admin/credit" class="inline-search" role="search">
${input({ name: "email", label: "Find kundens kort (e-mail)", type: "search", value: email })}
<button class="button button-secondary" type="submit">Vis</button>
</form>
${cards.length ? table("Gavekort og tilgodebeviser", ["Kode", "Saldo", "Udstedt", "Kilde", "Kunde", "Ordre", "Udløber"], cards.map((card) => cardRow(card, currency, refs)), [1, 2]) : emptyState("Ingen gavekort", email ? "Kunden har ingen gavekort." : "Udsted det første herunder.")}
<p class="hint">Koden vises kun med de sidste fire tegn; hele koden står i e-mailen til kunden.</p>
</section>`;
}

async function tasksSection(web: AdminRequest): Promise<Html> {
  const head = html`<h2>Tilbagebetalinger til udbetaling</h2><p class="hint">Penge, der skal tilbage til kunder, som betalte med bankoverførsel: overfør beløbet, og markér det så som udbetalt.</p>`;
  if (!web.may(listRefundTasks)) return html`<section class="card">${head}<p class="hint">${needs(listRefundTasks)}</p></section>`;
  const [tasks, currency] = await Promise.all([web.call(listRefundTasks, { status: "open", limit: 100 }), web.currency()]);
  const refs = await orderRefs(web, tasks.map((task) => task.orderId));
  return html`<section class="card" id="refund-tasks">${head}
${tasks.length ? table("Tilbagebetalinger til udbetaling", ["Ordre", "Kunde", "Beløb", "Konto", "Oprettet", ""], tasks.map((task) => taskRow(web, task, currency, refs)), [2]) : html`<p>Der er ingen tilbagebetalinger at udbetale.</p>`}
</section>`;
}

function issueForm(web: AdminRequest, currency: string): Html {
  return html`<section class="card narrow"><h2>Udsted et gavekort</h2>
${formOpen(web, "/admin/credit/issue")}
${input({ name: "amount", label: `Beløb i ${unit(currency)}`, required: true, inputmode: "decimal", hint: `Mindst ${formatMoney(100, currency, { whole: true })}` })}
${input({ name: "customerEmail", label: "Send koden til", type: "email", maxlength: 254, hint: "Kundens e-mail. Tom: du giver selv koden videre." })}
${input({ name: "reason", label: "Årsag", maxlength: 500, placeholder: "Undskyld for ventetiden, præmie …" })}
${submit(web, issueCard, "Udsted gavekort")}
</form></section>`;
}

export async function creditPage(web: AdminRequest): Promise<View> {
  const [tasks, cards, currency] = await Promise.all([tasksSection(web), cardsSection(web), web.currency()]);
  return {
    title: "Tilgodehavender og gavekort",
    main: html`${pageHead("Tilgodehavender og gavekort", { lead: "Hvad butikken skylder kunderne: gavekort, tilgodebeviser og tilbagebetalinger, der venter på en overførsel." })}
${tasks}
${cards}
${issueForm(web, currency)}`,
  };
}

/** The new card's whole code is shown in this answer only (never redirected through a cookie). */
async function issueAction(web: AdminRequest): Promise<Outcome> {
  let created: z.output<typeof issueCard.output>;
  const email = optional(web.field("customerEmail"));
  try {
    created = await web.call(issueCard, { amountDkk: kroner(web.field("amount"), "amountDkk") ?? 0, customerEmail: email, reason: optional(web.field("reason")) });
  } catch (error) {
    return web.refused("/admin/credit", error);
  }
  return {
    status: 201,
    title: "Gavekortet er udstedt",
    main: html`${breadcrumbs([{ label: "Tilgodehavender og gavekort", href: "/admin/credit" }, { label: "Nyt gavekort" }])}
${pageHead(`Gavekort på ${money(created.balanceDkk, await web.currency())} er udstedt`)}
<section class="card key-reveal">
<div class="notice notice-info" role="status">${email ? html`Koden er sendt til ${email}. ` : ""}Hele koden vises kun her; bagefter ses kun de sidste fire tegn.</div>
<div class="copy-field">
<input id="new-card" class="mono" type="text" readonly value="${created.code}" aria-label="Gavekortets kode" data-select-on-focus>
<button type="button" class="button" data-copy="#new-card" hidden>Kopiér</button>
</div>
<p><a class="button button-secondary" href="/admin/credit">Tilbage til oversigten</a></p>
</section>`,
  };
}

export async function creditAction(web: AdminRequest, action: string): Promise<Outcome> {
  if (action === "issue") return issueAction(web);
  throw new NotFound(`No credit action "${action}".`);
}

export async function refundTaskAction(web: AdminRequest, id: string, action: string): Promise<Outcome> {
  if (!/^[\w-]{1,100}$/.test(id) || action !== "complete") throw new NotFound(`No refund task action "${action}".`);
  return web.act("/admin/credit", async () => {
    const task = await web.call(completeRefundTask, { taskId: id });
    const refs = await orderRefs(web, [task.orderId]);
    return `Tilbagebetalingen på ${money(task.amountDkk, await web.currency())} for ordre ${refs.get(task.orderId) ?? task.orderId} er markeret som udbetalt.`;
  });
}
