// /admin/api-keys: create a key (name, scopes as checkboxes with what they open; "*" only for staff who have it),
// shown once with a copy button; the list with last use; revoke. Keys are not a tool: src/core/staff/api-keys.ts
// keeps a staff user within their own scopes and writes the audit entries.
import { listApiKeys, type ApiKeyInfo } from "../../../core/api-keys.ts";
import { NotFound } from "../../../core/errors.ts";
import { createKeyAsStaff, mayGrant, revokeKeyAsStaff } from "../../../core/staff/api-keys.ts";
import { SCOPES, WILDCARD } from "../../../tools/scopes.ts";
import { breadcrumbs, emptyState, field as input } from "../../components.ts";
import { html, type Html, type HtmlValue } from "../../html.ts";
import type { Outcome, View } from "../../page.ts";
import { checkbox, formOpen, pageHead, table } from "../components.ts";
import { when } from "../forms.ts";
import type { AdminRequest } from "../site.ts";

const SCOPE_TEXT: Record<string, string> = {
  "analytics:read": "Nøgletal, salg, bedst sælgende, forladte kurve",
  "audit:read": "Læse ændringsloggen",
  "audit:revert": "Fortryde ændringer",
  "cart:write": "Kurv og tjekud i en kundesession (butikschat, agenter)",
  "catalog:read": "Sortiment, kategorier, varianter, politikker, adresser",
  "categories:read": "Kategorier (bruges ikke af noget værktøj; brug catalog:read)",
  "categories:write": "Oprette, rette og slette kategorier",
  "customer:read": "Kunder og deres ordrer",
  "discounts:read": "Læse rabatkoder",
  "discounts:write": "Oprette, rette og slette rabatkoder",
  "features:read": "Læse funktionsflag",
  "features:write": "Slå funktioner til og fra",
  "marketing:write": "Nyhedsbreve og tilmeldte",
  "orders:read": "Læse ordrer og deres historik",
  "orders:write": "Oprette og behandle ordrer: status, forsendelse, refusion",
  "pages:read": "Læse sider og ydelser",
  "pages:write": "Oprette, rette og slette sider og ydelser",
  "products:read": "Produkter (bruges ikke af noget værktøj; brug catalog:read)",
  "products:write": "Oprette, rette og slette produkter, billeder, lager",
  "settings:read": "Læse indstillinger",
  "settings:write": "Ændre indstillinger",
};

function scopeChoices(web: AdminRequest): Html {
  const staff = web.staff.staff;
  const toolsOf = (scope: string) => web.runtime.registry.tools.filter((tool) => tool.scope === scope).map((tool) => tool.name);
  const choices = SCOPES.map((scope) => {
    const tools = toolsOf(scope);
    const allowed = mayGrant(staff, scope);
    return checkbox({
      name: "scopes",
      value: scope,
      label: scope,
      hint: `${SCOPE_TEXT[scope] ?? ""}${tools.length ? ` · ${tools.length} værktøjer` : ""}${allowed ? "" : " · du har ikke selv denne adgang"}`,
      disabled: !allowed,
    });
  });
  return html`<fieldset class="scopes"><legend>Adgange</legend>
<p class="hint">Giv nøglen så lidt som muligt. Værktøjerne bag hver adgang står i <a href="/api/v1/tools">kataloget</a>.</p>
<div class="scope-grid">${choices}</div>
<div class="scope-admin">${checkbox({ name: "scopes", value: WILDCARD, label: "* – alt", hint: "Kun til administratornøgler: giver hver adgang, også fremtidige.", disabled: !mayGrant(staff, WILDCARD) })}</div>
</fieldset>`;
}

function keyRow(web: AdminRequest, key: ApiKeyInfo): HtmlValue[] {
  const manageable = key.scopes.every((scope) => mayGrant(web.staff.staff, scope));
  const revoke = key.revokedAt
    ? html`<span class="tag">Tilbagekaldt ${when(key.revokedAt)}</span>`
    : html`<form method="post" action="/admin/api-keys/${key.id}/revoke" class="inline-form" data-confirm="Tilbagekald ${key.name}? Programmer der bruger den, mister adgangen med det samme.">${web.csrfField()}<button type="submit" class="button button-danger button-small"${manageable ? "" : html` disabled title="Nøglen har adgange, du ikke selv har"`}>Tilbagekald</button></form>`;
  return [
    html`<strong>${key.name}</strong><br><code class="hint">${key.prefix}</code>`,
    html`${key.scopes.map((scope) => html`<span class="tag${scope === WILDCARD ? " tag-warn" : ""}">${scope}</span> `)}`,
    when(key.createdAt),
    key.lastUsedAt ? when(key.lastUsedAt) : html`<span class="hint">aldrig</span>`,
    revoke,
  ];
}

export async function apiKeysPage(web: AdminRequest): Promise<View> {
  const keys = await listApiKeys(web.runtime.database.prisma);
  const active = keys.filter((key) => !key.revokedAt).reverse();
  const revoked = keys.filter((key) => key.revokedAt).reverse();
  return {
    title: "API-nøgler",
    main: html`${pageHead("API-nøgler", { lead: html`Nøgler til integrationer og AI-agenter over REST (<code>/api/v1/tools</code>) og MCP (<code>/api/mcp</code>).` })}
${active.length ? table("Aktive nøgler", ["Nøgle", "Adgange", "Oprettet", "Sidst brugt", ""], active.map((key) => keyRow(web, key))) : emptyState("Ingen aktive nøgler", "Opret den første herunder.")}
<section class="card"><h2>Ny nøgle</h2>
${formOpen(web, "/admin/api-keys")}
${input({ name: "name", label: "Navn", required: true, maxlength: 100, placeholder: "fx ERP-synkronisering", hint: "Hvem eller hvad nøglen er til." })}
${scopeChoices(web)}
<button type="submit" class="button">Opret nøgle</button>
</form></section>
${revoked.length ? html`<details class="card"><summary>Tilbagekaldte nøgler (${revoked.length})</summary>${table("Tilbagekaldte nøgler", ["Nøgle", "Adgange", "Oprettet", "Sidst brugt", ""], revoked.map((key) => keyRow(web, key)))}</details>` : ""}`,
  };
}

/** The new key is shown in this response only (never redirected through a cookie or stored in plain text). */
export async function createKeyAction(web: AdminRequest): Promise<Outcome> {
  const body = web.req.body as Record<string, unknown>;
  const scopes = ([] as unknown[]).concat(body.scopes ?? []).filter((scope): scope is string => typeof scope === "string");
  if (!scopes.length) return web.done("/admin/api-keys", "Vælg mindst én adgang til nøglen.", "error");
  let created: Awaited<ReturnType<typeof createKeyAsStaff>>;
  try {
    created = await createKeyAsStaff(web.runtime.database.prisma, web.staff.staff, web.field("name"), scopes);
  } catch (error) {
    return web.refused("/admin/api-keys", error);
  }
  web.runtime.log.info("api key created", { keyId: created.info.id, staffId: web.staff.staff.id });
  return {
    status: 201,
    title: "Ny API-nøgle",
    main: html`${breadcrumbs([{ label: "API-nøgler", href: "/admin/api-keys" }, { label: created.info.name }])}
${pageHead(`Nøglen "${created.info.name}" er oprettet`)}
<section class="card key-reveal">
<div class="notice notice-info" role="status">Kopiér nøglen nu. Den vises kun denne ene gang; butikken gemmer kun et fingeraftryk af den.</div>
<div class="copy-field">
<input id="new-key" class="mono" type="text" readonly value="${created.key}" aria-label="Den nye API-nøgle" data-select-on-focus>
<button type="button" class="button" data-copy="#new-key" hidden>Kopiér</button>
</div>
<p>Adgange: ${created.info.scopes.map((scope) => html`<span class="tag">${scope}</span> `)}</p>
<p class="hint">Brug den som <code>Authorization: Bearer …</code>, fx:</p>
<pre class="code-sample">curl -X POST ${web.runtime.config.publicBaseUrl}/api/v1/tools/orders.list \\
  -H "authorization: Bearer ${created.key}" \\
  -H "content-type: application/json" -d '{"limit": 5}'</pre>
<p><a class="button button-secondary" href="/admin/api-keys">Tilbage til nøglerne</a></p>
</section>`,
  };
}

export async function revokeKeyAction(web: AdminRequest, id: string): Promise<Outcome> {
  if (!/^[\w-]{1,100}$/.test(id)) throw new NotFound(`No API key "${id}".`);
  return web.act("/admin/api-keys", async () => {
    const info = await revokeKeyAsStaff(web.runtime.database.prisma, web.staff.staff, id, web.runtime.now());
    // Forget the key in this process's verification cache at once (other processes follow within seconds).
    await web.runtime.auth.revoke(id);
    return `Nøglen "${info.name}" er tilbagekaldt.`;
  });
}
