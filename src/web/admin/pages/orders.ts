// GET /admin/orders: orders newest first, filtered by status and period and searched by number, e-mail or name, a page
// at a time (orders.list), each named by its number (orders.get_number).
import ordersList from "../../../tools/orders/list.ts";
import { ORDER_STATUSES } from "../../../tools/orders/transitions.ts";
import { emptyState, field as input } from "../../components.ts";
import { html } from "../../html.ts";
import { orderRefs } from "../../order-numbers.ts";
import type { View } from "../../page.ts";
import { money, ORDER_STATUS_HINTS, ORDER_STATUS_LABELS, pageHead, select, statusTag, table } from "../components.ts";
import { localDateTime, when } from "../forms.ts";
import type { AdminRequest } from "../site.ts";

const PAGE_SIZE = 25;

/** Builds a list address from the current filters, replacing or dropping some. */
function listHref(filters: Record<string, string>, change: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...filters, ...change })) if (value) params.set(key, value);
  const query = params.toString();
  return query ? `/admin/orders?${query}` : "/admin/orders";
}

export async function ordersPage(web: AdminRequest): Promise<View> {
  const filters = { status: web.query("status"), q: web.query("q").slice(0, 200), from: web.query("from"), to: web.query("to"), before: web.query("before") };
  const status = (ORDER_STATUSES as readonly string[]).includes(filters.status) ? (filters.status as (typeof ORDER_STATUSES)[number]) : undefined;
  const fromDate = filters.from ? localDateTime(`${filters.from}T00:00`, "from") : undefined;
  const dayAfter = filters.to ? localDateTime(`${filters.to}T00:00`, "to") : undefined;
  const toDate = dayAfter ? new Date(Date.parse(dayAfter) + 24 * 3600_000).toISOString() : undefined;
  const before = filters.before && !Number.isNaN(Date.parse(filters.before)) ? new Date(filters.before).toISOString() : undefined;
  const upper = [toDate, before].filter((value): value is string => Boolean(value)).sort()[0];
  const orders = await web.call(ordersList, {
    ...(status ? { status } : {}),
    ...(filters.q ? { query: filters.q } : {}),
    ...(fromDate ? { fromDate } : {}),
    ...(upper ? { toDate: upper } : {}),
    limit: PAGE_SIZE + 1,
  });
  const page = orders.slice(0, PAGE_SIZE);
  const older = orders.length > PAGE_SIZE ? page.at(-1)!.createdAt : undefined;
  const [refs, currency] = await Promise.all([orderRefs(web, page.map((order) => order.id)), web.currency()]);
  const rows = page.map((order) => [
    html`<a href="/admin/orders/${order.id}">${refs.get(order.id) ?? order.id}</a>`,
    when(order.createdAt),
    html`${order.shippingName}<br><span class="hint">${order.email}</span>`,
    order.itemCount,
    money(order.totalDkk, currency),
    statusTag(order.status),
  ]);
  const statusChoices: Array<[string, string]> = [["", "Alle"], ...ORDER_STATUSES.map((value): [string, string] => [value, ORDER_STATUS_LABELS[value] ?? value])];
  return {
    title: "Ordrer",
    main: html`${pageHead("Ordrer", { lead: "Nyeste først. Klik på en ordre for at behandle den." })}
<form method="get" action="/admin/orders" class="filters" role="search">
${select({ name: "status", label: "Status", value: status ?? "", choices: statusChoices })}
${input({ name: "q", label: "Søg", type: "search", value: filters.q, placeholder: "1001, e-mail eller navn", maxlength: 200 })}
${input({ name: "from", label: "Fra dato", type: "date", value: filters.from })}
${input({ name: "to", label: "Til og med", type: "date", value: filters.to })}
<div class="filter-actions"><button class="button" type="submit">Filtrér</button> <a class="button button-secondary" href="/admin/orders">Nulstil</a></div>
</form>
${page.length ? table("Ordrer", ["Ordre", "Oprettet", "Kunde", "Varer", "Total", "Status"], rows, [3, 4]) : emptyState("Ingen ordrer", "Ingen ordrer passer til filtrene.")}
<nav class="pagination" aria-label="Sider">
${before ? html`<a class="button button-secondary" href="${listHref(filters, { before: undefined })}">← Nyeste</a>` : html`<span></span>`}
${older ? html`<a class="button button-secondary" rel="next" href="${listHref(filters, { before: older })}">Ældre ordrer →</a>` : html`<span></span>`}
</nav>
<details class="card status-legend"><summary>Hvad betyder statusserne?</summary>
<dl class="facts">${ORDER_STATUSES.map((value) => html`<div><dt>${statusTag(value)}</dt><dd>${ORDER_STATUS_HINTS[value] ?? ""}</dd></div>`)}</dl>
</details>`,
  };
}
