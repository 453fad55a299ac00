// /admin/api-keys: create a key (name, scopes as checkboxes with what they open; "*" only for staff who have it; the
// toolsets it is limited to; an agent platform's ACP signing secret and webhook URL), shown once with a copy button; the list with last use; revoke
// (keys.create, keys.set_acp, keys.list, keys.revoke: the tools keep a staff user within their own scopes and audit
// every change).
import { fieldMessage, fieldName } from "../problems.ts";
import type { z } from "zod";
import { NotFound } from "../../../core/errors.ts";
import createKey from "../../../tools/keys/create.ts";
import listKeys from "../../../tools/keys/list.ts";
import revokeKey from "../../../tools/keys/revoke.ts";
import setAcp from "../../../tools/keys/set_acp.ts";
import { mayGrant, SCOPES, WILDCARD, type Grant } from "../../../tools/scopes.ts";
import { checkReceiver } from "../../../tools/webhooks/endpoints.ts";
import { breadcrumbs, emptyState, field as input } from "../../components.ts";
import { count, html, type Html, type HtmlValue } from "../../html.ts";
import type { Outcome, View } from "../../page.ts";
import { checkbox, formOpen, needs, pageHead, submit, table } from "../components.ts";
import { when } from "../forms.ts";
import { SCOPE_TEXT } from "../scopes.ts";
import { toolsetCheckboxes } from "../toolsets.ts";
import type { AdminRequest } from "../site.ts";

type Key = z.output<typeof listKeys.output>[number];

function scopeChoices(web: AdminRequest): Html {
  const granted = web.staff.caller.scopes;
  const toolsOf = (scope: string) => web.deps.registry.tools.filter((tool) => tool.scope === scope).map((tool) => tool.name);
  const choices = SCOPES.map((scope) => {
    const tools = toolsOf(scope);
    const allowed = mayGrant(granted, scope);
    return checkbox({
      name: "scopes",
      value: scope,
      label: scope,
      hint: `${SCOPE_TEXT[scope] ?? ""}${tools.length ? ` · ${count(tools.length, "værktøj", "værktøjer")}` : ""}${allowed ? "" : " · du har ikke selv denne adgang"}`,
      disabled: !allowed,
    });
  });
  return html`<fieldset class="scopes"><legend>Adgange</legend>
<p class="hint">Giv nøglen så lidt som muligt. Værktøjerne bag hver adgang står i <a href="/docs">API-dokumentationen</a>.</p>
<div class="scope-grid">${choices}</div>
<div class="scope-admin">${checkbox({ name: "scopes", value: WILDCARD, label: "* – alt", hint: "Kun til administratornøgler: giver hver adgang, også fremtidige.", disabled: !mayGrant(granted, WILDCARD) })}</div>
</fieldset>`;
}

/** The toolsets (areas) as checkboxes, none ticked: every toolset; a limited key lists and calls only their tools. */
function toolsetChoices(web: AdminRequest): Html {
  const choices = toolsetCheckboxes(web.deps.registry.tools, () => false);
  return html`<fieldset class="scopes"><legend>Værktøjssæt (valgfrit)</legend>
<p class="hint">Begræns nøglen til nogle af butikkens områder: en AI-agent ser så kun deres værktøjer (en kortere værktøjsliste), og kald uden for dem afvises. Intet valgt: alle områder.</p>
<div class="scope-grid">${choices}</div>
</fieldset>`;
}

function keyRow(web: AdminRequest, key: Key): HtmlValue[] {
  const blocked = !web.may(revokeKey)
    ? needs(revokeKey)
    : key.scopes.every((scope) => mayGrant(web.staff.caller.scopes, scope))
      ? null
      : "Nøglen har adgange, du ikke selv har";
  const revoke = key.revokedAt
    ? html`<span class="tag">Tilbagekaldt ${when(key.revokedAt)}</span>`
    : html`<form method="post" action="/admin/api-keys/${key.id}/revoke" class="inline-form" data-confirm="Tilbagekald ${key.name}? Programmer der bruger den, mister adgangen med det samme.">${web.csrfField()}<button type="submit" class="button button-danger button-small"${blocked ? html` disabled title="${blocked}"` : ""}>Tilbagekald</button></form>`;
  return [
    html`<strong>${key.name}</strong><br><code class="hint">${key.prefix}</code>`,
    html`${key.scopes.map((scope) => html`<span class="tag${scope === WILDCARD ? " tag-warn" : ""}">${scope}</span> `)}${key.toolsets ? html`<br><span class="hint">Kun værktøjssæt: ${key.toolsets.join(", ")}</span>` : ""}`,
    when(key.createdAt),
    key.lastUsedAt ? when(key.lastUsedAt) : html`<span class="hint">aldrig</span>`,
    revoke,
  ];
}

export async function apiKeysPage(web: AdminRequest): Promise<View> {
  const keys = await web.call(listKeys, {});
  const active = keys.filter((key) => !key.revokedAt).reverse();
  const revoked = keys.filter((key) => key.revokedAt).reverse();
  return {
    title: "API-nøgler",
    main: html`${pageHead("API-nøgler", { lead: html`Nøgler til integrationer og AI-agenter over REST (<code>/api/v1/tools</code>) og MCP (<code>/api/mcp</code>). Sådan bruges de: <a href="/docs">API-dokumentationen</a> og <a href="/docs/mcp">MCP-klienter</a>.` })}
${active.length ? table("Aktive nøgler", ["Nøgle", "Adgange", "Oprettet", "Sidst brugt", ""], active.map((key) => keyRow(web, key))) : emptyState("Ingen aktive nøgler", "Opret den første herunder.")}
<section class="card"><h2>Ny nøgle</h2>
${formOpen(web, "/admin/api-keys")}
${input({ name: "name", label: "Navn", required: true, maxlength: 100, placeholder: "fx ERP-synkronisering", hint: "Hvem eller hvad nøglen er til." })}
${scopeChoices(web)}
${toolsetChoices(web)}
<fieldset class="acp"><legend>Agentic Commerce Protocol (valgfrit)</legend>
<p class="hint">Til agentplatforme, der handler over <code>/acp/checkout_sessions</code> (giv nøglen adgangen checkout:agent).</p>
${input({ name: "acpSigningSecret", label: "Signeringsnøgle", type: "password", maxlength: 200, autocomplete: "off", hint: "Den hemmelighed platformen signerer sine kald med (mindst 16 tegn). Så skal hvert kald have gyldig Signature og Timestamp." })}
${input({ name: "acpWebhookUrl", label: "Webhook-adresse", type: "url", maxlength: 2000, placeholder: "https://…", hint: "Hvor platformen modtager ordrehændelser." })}
</fieldset>
${submit(web, createKey, "Opret nøgle")}
</form></section>
${revoked.length ? html`<details class="card"><summary>Tilbagekaldte nøgler (${revoked.length})</summary>${table("Tilbagekaldte nøgler", ["Nøgle", "Adgange", "Oprettet", "Sidst brugt", ""], revoked.map((key) => keyRow(web, key)))}</details>` : ""}`,
  };
}

/** The new key is shown in this response only (never redirected through a cookie or stored in plain text). */
export async function createKeyAction(web: AdminRequest): Promise<Outcome> {
  const body = web.req.body as Record<string, unknown>;
  const scopes = ([] as unknown[]).concat(body.scopes ?? []).filter((scope): scope is string => typeof scope === "string");
  if (!scopes.length) return web.done("/admin/api-keys", "Vælg mindst én adgang til nøglen.", "error");
  const toolsets = ([] as unknown[]).concat(body.toolsets ?? []).filter((name): name is string => typeof name === "string");
  const secret = web.field("acpSigningSecret");
  const url = web.field("acpWebhookUrl").trim();
  const acp = { ...(secret ? { signingSecret: secret } : {}), ...(url ? { webhookUrl: url } : {}) };
  // Checked before the key exists, so a bad ACP setting leaves no half-made key behind.
  const settings = setAcp.input.safeParse({ id: "new", ...acp });
  if (!settings.success) return web.done("/admin/api-keys", `ACP: ${settings.error.issues.map((issue) => `${fieldName(issue.path.join("."))} ${fieldMessage(issue.message)}`).join("; ")}.`, "error");
  let created: z.output<typeof createKey.output>;
  try {
    // The outbound guard of keys.set_acp, also before the key exists.
    if (acp.webhookUrl) await checkReceiver(acp.webhookUrl, web.deps.config.webhooksAllowLocal);
    created = await web.call(createKey, { name: web.field("name"), scopes: scopes as Grant[], ...(toolsets.length ? { toolsets } : {}) });
    if (Object.keys(acp).length > 0) await web.call(setAcp, { id: created.key.id, ...acp });
  } catch (error) {
    return web.refused("/admin/api-keys", error);
  }
  return {
    status: 201,
    title: "Ny API-nøgle",
    main: html`${breadcrumbs([{ label: "API-nøgler", href: "/admin/api-keys" }, { label: created.key.name }])}
${pageHead(`Nøglen "${created.key.name}" er oprettet`)}
<section class="card key-reveal">
<div class="notice notice-info" role="status">Kopiér nøglen nu. Den vises kun denne ene gang; butikken gemmer kun et fingeraftryk af den.</div>
<div class="copy-field">
<input id="new-key" class="mono" type="text" readonly value="${created.secret}" aria-label="Den nye API-nøgle" data-select-on-focus>
<button type="button" class="button" data-copy="#new-key" hidden>Kopiér</button>
</div>
<p>Adgange: ${created.key.scopes.map((scope) => html`<span class="tag">${scope}</span> `)}</p>
${created.key.toolsets ? html`<p>Kun værktøjssæt: ${created.key.toolsets.map((name) => html`<span class="tag">${name}</span> `)}</p>` : ""}
<p class="hint">Brug den som <code>Authorization: Bearer …</code>, fx:</p>
<pre class="code-sample">curl -X POST ${web.deps.config.publicBaseUrl}/api/v1/tools/orders.list \\
  -H "authorization: Bearer ${created.secret}" \\
  -H "content-type: application/json" -d '{"limit": 5}'</pre>
<p><a class="button button-secondary" href="/admin/api-keys">Tilbage til nøglerne</a></p>
</section>`,
  };
}

export async function revokeKeyAction(web: AdminRequest, id: string): Promise<Outcome> {
  if (!/^[\w-]{1,100}$/.test(id)) throw new NotFound(`No API key "${id}".`);
  return web.act("/admin/api-keys", async () => {
    const key = await web.call(revokeKey, { id });
    return `Nøglen "${key.name}" er tilbagekaldt.`;
  });
}
