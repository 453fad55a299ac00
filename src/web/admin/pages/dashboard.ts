// GET /admin: the last 7 and 30 days at a glance (analytics.summary), revenue per day as a chart
// (analytics.sales_timeseries), best sellers, low stock and the orders waiting to be sent.
import analyticsSummary from "../../../tools/analytics/summary.ts";
import salesTimeseries from "../../../tools/analytics/sales_timeseries.ts";
import topProducts from "../../../tools/analytics/top_products.ts";
import ordersList from "../../../tools/orders/list.ts";
import listLowStock from "../../../tools/products/list_low_stock.ts";
import { count, html, type Html } from "../../html.ts";
import type { View } from "../../page.ts";
import { salesChartSvg } from "../chart.ts";
import { money, pageHead, table } from "../components.ts";
import { copenhagenDate } from "../forms.ts";
import type { AdminRequest } from "../site.ts";

function addDays(date: string, days: number): string {
  const [y, m, d] = date.split("-").map(Number);
  return new Date(Date.UTC(y!, m! - 1, d! + days)).toISOString().slice(0, 10);
}

const percent = (share: number) => `${(share * 100).toLocaleString("da-DK", { maximumFractionDigits: 1 })} %`;

function kpi(label: string, week: string, month: string): Html {
  return html`<div class="kpi"><p class="kpi-label">${label}</p><p class="kpi-value">${month}</p><p class="kpi-sub">7 dage: ${week}</p></div>`;
}

async function figures(web: AdminRequest, today: string): Promise<{ overview: Html; bestSellers: Html }> {
  if (!web.may(analyticsSummary)) {
    return { overview: html`<div class="notice notice-info">Nøgletal kræver adgangen analytics:read.</div>`, bestSellers: html`` };
  }
  const from30 = addDays(today, -29);
  const [week, month, series, top, currency] = await Promise.all([
    web.call(analyticsSummary, { fromDate: addDays(today, -6), toDate: today }),
    web.call(analyticsSummary, { fromDate: from30, toDate: today }),
    web.call(salesTimeseries, { fromDate: from30, toDate: today, interval: "day" }),
    web.call(topProducts, { fromDate: from30, toDate: today, by: "revenue", limit: 5 }),
    web.currency(),
  ]);
  const bestSellers = top.products.length
    ? table("Bedst sælgende produkter", ["Produkt", "Stk.", "Omsætning"], top.products.map((p) => [p.productName, p.units, money(p.revenueDkk, currency)]), [1, 2])
    : html`<p class="hint">Ingen salg i perioden.</p>`;
  const overview = html`<section class="kpis" aria-label="Nøgletal for de sidste 30 dage">
${kpi("Omsætning", money(week.revenueDkk, currency), money(month.revenueDkk, currency))}
${kpi("Ordrer", String(week.orderCount), String(month.orderCount))}
${kpi("Gns. ordre", money(week.averageOrderValueDkk, currency), money(month.averageOrderValueDkk, currency))}
${kpi("Nye kunder", String(week.newCustomers), String(month.newCustomers))}
<div class="kpi"><p class="kpi-label">Fra AI-agenter</p><p class="kpi-value">${percent(month.aiGeneratedShare)}</p><p class="kpi-sub">${count(month.aiGeneratedOrderCount, "ordre", "ordrer")} · 7 dage: ${percent(week.aiGeneratedShare)}</p></div>
</section>
<section class="card chart-card">
<h2>Omsætning pr. dag</h2>
<p class="hint">${from30} – ${today} · ${money(month.revenueDkk, currency)} i alt</p>
${salesChartSvg(series.buckets, `Omsætning pr. dag fra ${from30} til ${today}`, currency)}
<details><summary>Vis som tabel</summary>
${table("Omsætning pr. dag", ["Dag", "Ordrer", "Omsætning"], series.buckets.map((b) => [b.date, b.orderCount, money(b.revenueDkk, currency)]), [1, 2])}
</details>
</section>`;
  return { overview, bestSellers: html`<section class="card" id="best-sellers"><h2>Bedst sælgende, 30 dage</h2>${bestSellers}</section>` };
}

async function lowStock(web: AdminRequest): Promise<Html> {
  if (!web.may(listLowStock)) return html``;
  const low = await web.call(listLowStock, { threshold: 5, includeVariants: true, limit: 10 });
  const rows = low.items.map((item) => [
    html`<a href="/admin/products/${item.slug}">${item.name}</a>${item.sku ? html`<br><span class="hint">Variant ${item.sku}</span>` : ""}`,
    html`<span class="${item.stock === 0 ? "tag tag-bad" : "tag tag-warn"}">${item.stock}</span>`,
  ]);
  return html`<section class="card"><h2>Lav lagerbeholdning</h2>
${rows.length ? table("Produkter med 5 eller færre på lager", ["Produkt", "Lager"], rows, [1]) : html`<p class="hint">Alle produkter har mere end 5 på lager.</p>`}
${low.total > low.items.length ? html`<p class="hint">${low.total - low.items.length} flere under grænsen.</p>` : ""}
</section>`;
}

async function waiting(web: AdminRequest): Promise<Html> {
  if (!web.may(ordersList)) return html``;
  const paid = await web.call(ordersList, { status: "paid", limit: 21 });
  if (!paid.length) return html`<div class="notice notice-success" role="status">Ingen betalte ordrer venter på at blive sendt.</div>`;
  const many = paid.length > 20 ? "Over 20" : String(paid.length);
  return html`<div class="notice notice-info" role="status"><strong>${many} betalte ${paid.length === 1 ? "ordre" : "ordrer"}</strong> venter på at blive sendt. <a href="/admin/orders?status=paid">Se dem</a></div>`;
}

export async function dashboardPage(web: AdminRequest): Promise<View> {
  const today = copenhagenDate(web.deps.now());
  const [notice, { overview, bestSellers }, stock] = await Promise.all([waiting(web), figures(web, today), lowStock(web)]);
  return {
    title: "Overblik",
    main: html`${pageHead("Overblik", { lead: `Sidste 30 dage til og med ${today}` })}
${notice}
${overview}
<div class="columns columns-2">${bestSellers}${stock}</div>`,
  };
}
