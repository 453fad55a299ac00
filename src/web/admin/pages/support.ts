// /admin/support: the queue of support tickets (open, answered, closed) and one ticket's conversation with a reply form
// (mailed to the shopper) and a close button; everything goes through the support.* tools (orders named by number).
import type { z } from "zod";
import { NotFound } from "../../../core/errors.ts";
import ordersGetNumber from "../../../tools/orders/get_number.ts";
import closeTicket from "../../../tools/support/close.ts";
import getTicket from "../../../tools/support/get_ticket.ts";
import listTickets from "../../../tools/support/list_tickets.ts";
import replyTicket from "../../../tools/support/reply.ts";
import { TICKET_STATUSES, type TicketStatus } from "../../../tools/support/tickets.ts";
import { breadcrumbs, emptyState } from "../../components.ts";
import { html, type Html, type HtmlValue } from "../../html.ts";
import { orderRefs } from "../../order-numbers.ts";
import type { Outcome, View } from "../../page.ts";
import { actionButton, formOpen, pageHead, submit, table, textarea } from "../components.ts";
import { when } from "../forms.ts";
import type { AdminRequest } from "../site.ts";

const STATUS_TEXT: Record<TicketStatus, string> = { open: "Venter på svar", answered: "Besvaret", closed: "Lukket" };

type Summary = z.output<typeof listTickets.output>[number];

const checkId = (id: string) => {
  if (!/^[\w-]{1,100}$/.test(id)) throw new NotFound(`No support ticket "${id}".`);
};

function statusOf(web: AdminRequest): TicketStatus {
  const wanted = web.query("status");
  return (TICKET_STATUSES as readonly string[]).includes(wanted ?? "") ? (wanted as TicketStatus) : "open";
}

/** The numbers of the tickets' orders, when this staff member may read orders. */
async function ticketOrders(web: AdminRequest, orderIds: Array<string | null>): Promise<Map<string, string>> {
  return web.may(ordersGetNumber) ? orderRefs(web, orderIds.filter((id): id is string => id !== null)) : new Map();
}

function orderLink(orderId: string, orders: Map<string, string>): Html {
  const ref = orders.get(orderId);
  return html`<a href="/admin/orders/${orderId}">${ref ?? html`<code>${orderId}</code>`}</a>`;
}

function row(ticket: Summary, orders: Map<string, string>): HtmlValue[] {
  return [
    html`<a href="/admin/support/${ticket.ticketId}">${ticket.subject}</a>`,
    ticket.email,
    ticket.orderId ? orderLink(ticket.orderId, orders) : "",
    String(ticket.messageCount),
    when(ticket.updatedAt),
  ];
}

export async function supportPage(web: AdminRequest): Promise<View> {
  const status = statusOf(web);
  const tickets = await web.call(listTickets, { status, limit: 100 });
  const orders = await ticketOrders(web, tickets.map((ticket) => ticket.orderId));
  const tabs = html`<nav class="tabs" aria-label="Status">${TICKET_STATUSES.map((s) =>
    s === status ? html`<strong aria-current="page">${STATUS_TEXT[s]}</strong> ` : html`<a href="/admin/support${s === "open" ? "" : `?status=${s}`}">${STATUS_TEXT[s]}</a> `,
  )}</nav>`;
  return {
    title: "Kundeservice",
    main: html`${pageHead("Kundeservice", { lead: "Henvendelser fra kunder og fra chatten, når en kunde beder om et menneske. Svar sendes til kunden på e-mail." })}
${tabs}
${tickets.length ? table(STATUS_TEXT[status], ["Emne", "Kunde", "Ordre", "Beskeder", "Senest"], tickets.map((ticket) => row(ticket, orders)), [3]) : emptyState("Ingen henvendelser", status === "open" ? "Alle er besvaret." : "Der er ingen her endnu.")}`,
  };
}

export async function ticketPage(web: AdminRequest, id: string): Promise<View> {
  checkId(id);
  const ticket = await web.call(getTicket, { ticketId: id });
  const orders = await ticketOrders(web, [ticket.orderId]);
  const open = ticket.status !== "closed";
  return {
    title: ticket.subject,
    main: html`${breadcrumbs([{ label: "Kundeservice", href: "/admin/support" }, { label: ticket.subject }])}
${pageHead(ticket.subject, {
  lead: html`${ticket.email}${ticket.orderId ? html` · ordre ${orderLink(ticket.orderId, orders)}` : ""} · <span class="tag">${STATUS_TEXT[ticket.status]}</span>`,
  actions: open ? actionButton(web, closeTicket, { action: `/admin/support/${id}/close`, label: "Luk henvendelsen", look: "secondary" }) : "",
})}
<section class="card"><h2>Samtale</h2>
<ol class="conversation">${ticket.messages.map((message) => html`<li class="message message-${message.from}"><p class="hint">${message.from === "staff" ? "Butikken" : "Kunden"} · ${when(message.createdAt)}</p><p class="pre-wrap">${message.body}</p></li>`)}</ol>
</section>
${open
  ? html`<section class="card"><h2>Svar kunden</h2>
${formOpen(web, `/admin/support/${id}/reply`)}
${textarea({ name: "message", label: "Svar", required: true, maxlength: 5000, rows: 6, hint: `Sendes som e-mail til ${ticket.email}.` })}
${submit(web, replyTicket, "Send svar")}
</form></section>`
  : ""}`,
  };
}

export async function ticketAction(web: AdminRequest, id: string, action: string): Promise<Outcome> {
  checkId(id);
  const back = `/admin/support/${id}`;
  switch (action) {
    case "reply":
      return web.act(back, async () => {
        await web.call(replyTicket, { ticketId: id, message: web.field("message") });
        return "Svaret er sendt til kunden.";
      });
    case "close":
      return web.act("/admin/support", async () => {
        await web.call(closeTicket, { ticketId: id });
        return "Henvendelsen er lukket.";
      }, back);
  }
  throw new NotFound(`No support action "${action}".`);
}
