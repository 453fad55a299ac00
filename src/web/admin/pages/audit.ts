// /admin/audit: who changed what (audit.list, filtered and paged), one entry's before/after side by side
// (audit.get) and the Revert button (audit.revert), whose refusals come back with the shop's reason.
import { NotFound } from "../../../core/errors.ts";
import auditGet from "../../../tools/audit/get.ts";
import auditList from "../../../tools/audit/list.ts";
import auditRevert from "../../../tools/audit/revert.ts";
import ordersGetNumber from "../../../tools/orders/get_number.ts";
import { breadcrumbs, emptyState, field as input } from "../../components.ts";
import { html, type Html } from "../../html.ts";
import { orderRefs } from "../../order-numbers.ts";
import type { Outcome, View } from "../../page.ts";
import { actionChoices, actionLabel } from "../actions.ts";
import { actorNames, DOOR_LABEL } from "../actors.ts";
import { actionButton, facts, pageHead, select, table } from "../components.ts";
import { when } from "../forms.ts";
import type { AdminRequest } from "../site.ts";
import { formatValue, isScalar, labelOf } from "../values.ts";

const PAGE_SIZE = 50;
const ID = /^[\w-]{1,100}$/;
const SUBJECTS: Array<[string, string]> = [
  ["", "Alle"], ["product", "Produkter"], ["productVariant", "Varianter"], ["category", "Kategorier"], ["order", "Ordrer"],
  ["discount", "Rabatkoder"], ["page", "Sider"], ["serviceOffering", "Ydelser"], ["setting", "Indstillinger"],
  ["featureFlag", "Funktioner"], ["campaign", "Kampagner"], ["subscriber", "Tilmeldte"], ["apiKey", "API-nøgler"],
];
/** Subjects as a noun in a sentence ("produkt prada-…"). */
const SUBJECT_NOUNS: Record<string, string> = {
  product: "produkt", productVariant: "variant", category: "kategori", order: "ordre", discount: "rabatkode", page: "side",
  serviceOffering: "ydelse", setting: "indstilling", featureFlag: "funktion", campaign: "kampagne", subscriber: "tilmeldt",
  apiKey: "API-nøgle", staffUser: "medarbejder", webhookEndpoint: "webhook", webhookDelivery: "webhook-levering", return: "retur",
  giftCard: "gavekort", supportTicket: "supportsag", address: "adresse", checkoutSession: "checkout",
};

function noun(subjectType: string): string {
  return SUBJECT_NOUNS[subjectType] ?? subjectType;
}

function door(entry: { door: string; agent?: string | null }): string {
  return `${DOOR_LABEL[entry.door] ?? entry.door}${entry.agent ? ` · ${entry.agent}` : ""}`;
}

/** The numbers of the orders among these entries' subjects (none for staff without orders:read). */
async function orderSubjects(web: AdminRequest, entries: Array<{ subjectType: string | null; subjectId: string | null }>): Promise<Map<string, string>> {
  if (!web.may(ordersGetNumber)) return new Map();
  return orderRefs(web, entries.filter((entry) => entry.subjectType === "order" && entry.subjectId).map((entry) => entry.subjectId!));
}

function subjectLink(subjectType: string | null, subjectId: string | null, orders: Map<string, string>, snapshot?: Record<string, unknown> | null): Html {
  if (!subjectType || !subjectId) return html`—`;
  if (subjectType === "order") return html`ordre <a href="/admin/orders/${subjectId}">${orders.get(subjectId) ?? subjectId}</a>`;
  const slug = typeof snapshot?.slug === "string" ? snapshot.slug : undefined;
  const pages: Record<string, string> = { product: "/admin/products/", category: "/admin/categories/", page: "/admin/pages/", serviceOffering: "/admin/services/" };
  if (slug && pages[subjectType]) return html`${noun(subjectType)} <a href="${pages[subjectType]}${slug}">${slug}</a>`;
  return html`${noun(subjectType)} <code class="hint">${subjectId.length > 14 ? `${subjectId.slice(0, 14)}…` : subjectId}</code>`;
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The change's Danish phrase; a tool without one by its name. */
function actionCell(tool: string): Html {
  const label = actionLabel(tool);
  return label === tool ? html`<code>${tool}</code>` : html`${label}`;
}

export async function auditPage(web: AdminRequest): Promise<View> {
  const filters = { tool: web.query("tool"), subjectType: web.query("subjectType"), actor: web.query("actor"), before: web.query("before") };
  const before = filters.before && !Number.isNaN(Date.parse(filters.before)) ? new Date(Date.parse(filters.before) - 1).toISOString() : undefined;
  const entries = await web.call(auditList, {
    ...(filters.tool && { tool: filters.tool.slice(0, 100) }),
    ...(filters.subjectType && { subjectType: filters.subjectType.slice(0, 100) }),
    ...(filters.actor && { actor: filters.actor.slice(0, 200) }),
    ...(before && { toDate: before }),
    limit: PAGE_SIZE + 1,
  });
  const shown = entries.slice(0, PAGE_SIZE);
  const [name, orders] = await Promise.all([actorNames(web, shown.map((entry) => entry.actor)), orderSubjects(web, shown)]);
  const rows = shown.map((entry) => [
    html`<a href="/admin/audit/${entry.id}">${when(entry.createdAt)}</a>`,
    actionCell(entry.tool),
    subjectLink(entry.subjectType, entry.subjectId, orders),
    html`${capitalised(name(entry.actor, entry.door))}<br><span class="hint">${door(entry)}</span>`,
    entry.revertedAt ? html`<span class="tag">Fortrudt</span>` : entry.revertOfId ? html`<span class="tag tag-info">Fortrydelse</span>` : entry.revertible ? html`<a href="/admin/audit/${entry.id}">Fortryd…</a>` : "",
  ]);
  const params = new URLSearchParams(Object.entries({ ...filters, before: shown.at(-1)?.createdAt ?? "" }).filter(([, value]) => value));
  return {
    title: "Ændringslog",
    main: html`${pageHead("Ændringslog", { lead: "Alle ændringer fra admin, API, MCP og assistenterne, nyeste først." })}
<form method="get" action="/admin/audit" class="filters" role="search">
${select({ name: "subjectType", label: "Emne", value: filters.subjectType, choices: SUBJECTS })}
${select({ name: "tool", label: "Handling", value: filters.tool, choices: [["", "Alle"], ...actionChoices()] })}
${input({ name: "actor", label: "Udført af", value: filters.actor, placeholder: "staff:…, key:…" })}
<div class="filter-actions"><button class="button" type="submit">Filtrér</button> <a class="button button-secondary" href="/admin/audit">Nulstil</a></div>
</form>
${rows.length ? table("Ændringer", ["Tidspunkt", "Handling", "Emne", "Udført af", ""], rows) : emptyState("Ingen ændringer", "Intet passer til filtrene.")}
<nav class="pagination" aria-label="Sider">
${filters.before ? html`<a class="button button-secondary" href="/admin/audit">← Nyeste</a>` : html`<span></span>`}
${entries.length > PAGE_SIZE ? html`<a class="button button-secondary" rel="next" href="/admin/audit?${params.toString()}">Ældre →</a>` : html`<span></span>`}
</nav>`,
  };
}

/** A snapshot value as the staff reads it: kroner, Danish dates, ja/nej, order statuses by name; lists and objects as JSON. */
function value(key: string, raw: unknown, currency: string): Html {
  if (raw === undefined) return html`<span class="hint">—</span>`;
  if (raw === null || raw === "") return html`<span class="hint">tom</span>`;
  if (Array.isArray(raw) && raw.every((item) => typeof item === "string")) return raw.length ? html`${raw.join(", ")}` : html`<span class="hint">ingen</span>`;
  if (!isScalar(raw)) return html`<pre>${JSON.stringify(raw, null, 2)}</pre>`;
  const text = formatValue(key, raw, currency);
  if (typeof raw === "string" && text !== raw && !Number.isNaN(Date.parse(raw))) return html`<time datetime="${raw}">${text}</time>`;
  return html`${text.length > 400 ? `${text.slice(0, 400)}…` : text}`;
}

function diffTable(caption: string, keys: string[], before: Record<string, unknown> | null, after: Record<string, unknown> | null, changed: boolean, currency: string): Html {
  return html`<div class="table-wrap"><table class="diff">
<caption class="visually-hidden">${caption}</caption>
<thead><tr><th>Felt</th><th>Før</th><th>Efter</th></tr></thead>
<tbody>${keys.map((key) => html`<tr${changed ? html` class="changed"` : ""}><th scope="row"${labelOf(key) === key ? "" : html` title="${key}"`}>${labelOf(key)}</th><td>${value(key, before ? before[key] : undefined, currency)}</td><td>${value(key, after ? after[key] : undefined, currency)}</td></tr>`)}</tbody>
</table></div>`;
}

/** The changed fields side by side; the unchanged ones folded away below them. */
function diff(before: Record<string, unknown> | null, after: Record<string, unknown> | null, currency: string): Html {
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  if (!keys.length) return html`<p class="hint">Ingen øjebliksbilleder.</p>`;
  const isChanged = (key: string) => JSON.stringify(before?.[key]) !== JSON.stringify(after?.[key]);
  const changed = keys.filter(isChanged);
  const same = keys.filter((key) => !isChanged(key));
  return html`${changed.length ? diffTable("Ændrede felter", changed, before, after, true, currency) : html`<p class="hint">Ingen felter blev ændret.</p>`}
${same.length ? html`<details><summary>Uændrede felter (${same.length})</summary>${diffTable("Uændrede felter", same, before, after, false, currency)}</details>` : ""}`;
}

export async function auditEntryPage(web: AdminRequest, id: string): Promise<View> {
  if (!ID.test(id)) throw new NotFound(`No audit entry "${id}".`);
  const entry = await web.call(auditGet, { id });
  const [name, orders, currency] = await Promise.all([actorNames(web, [entry.actor, entry.revertedBy]), orderSubjects(web, [entry]), web.currency()]);
  const revert = entry.revertedAt
    ? html`<div class="notice notice-info">Fortrudt ${when(entry.revertedAt)} af ${name(entry.revertedBy ?? "")}.</div>`
    : entry.revertible
      ? actionButton(web, auditRevert, { action: `/admin/audit/${entry.id}/revert`, label: "Fortryd ændringen", look: "danger", confirm: "Fortryd ændringen og gendan det tidligere indhold?" })
      : html`<p class="hint">Denne ændring kan ikke fortrydes herfra.</p>`;
  return {
    title: `Ændring: ${actionLabel(entry.tool)}`,
    main: html`${breadcrumbs([{ label: "Ændringslog", href: "/admin/audit" }, { label: actionLabel(entry.tool) }])}
${pageHead(actionLabel(entry.tool), { lead: html`${when(entry.createdAt)} · ${capitalised(name(entry.actor, entry.door))} · ${door(entry)}` })}
<section class="card">
${facts([
  ["Emne", subjectLink(entry.subjectType, entry.subjectId, orders, entry.after ?? entry.before)],
  ["Forespørgsel", entry.requestId ? html`<code>${entry.requestId}</code>` : null],
  ["Fortryder", entry.revertOfId ? html`<a href="/admin/audit/${entry.revertOfId}">en tidligere ændring</a>` : null],
])}
${revert}
</section>
<section class="card"><h2>Før og efter</h2>${diff(entry.before, entry.after, currency)}</section>`,
  };
}

export async function revertAction(web: AdminRequest, id: string): Promise<Outcome> {
  if (!ID.test(id)) throw new NotFound(`No audit entry "${id}".`);
  return web.act(`/admin/audit/${id}`, async () => {
    const result = await web.call(auditRevert, { id });
    const what = { deleted: "slettet igen", recreated: "genskabt", restored: "gendannet" }[result.action];
    return `${capitalised(noun(result.subjectType))} er ${what}.`;
  });
}
