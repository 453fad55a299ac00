// The OAuth pages of the admin. /admin/oauth/:uid: an app (Claude, ChatGPT, any MCP client) asks to act for the signed-in
// staff user (the admin's own sign-in comes first, through requireStaff); the consent page names the app and the
// scopes asked for as Danish sentences, within the user's own scopes, each one can be unticked, and the toolsets (the
// catalogue's areas) the app may use, all ticked (every toolset: no limit). /admin/apps ("Forbundne apps"): every grant
// with app, user, scopes, toolsets and last use, and revoke (keys.list_grants, keys.revoke_grant).
import type { z } from "zod";
import { NotFound } from "../../../core/errors.ts";
import type { PendingAuthorization } from "../../../http/oauth-interactions.ts";
import listGrants from "../../../tools/keys/list_grants.ts";
import revokeGrant from "../../../tools/keys/revoke_grant.ts";
import { mayGrant } from "../../../tools/scopes.ts";
import { TOOLSETS } from "../../../tools/toolsets.ts";
import { appName, emptyState, hostOf } from "../../components.ts";
import { CONTENT_SECURITY_POLICY } from "../../headers.ts";
import { html, type HtmlValue } from "../../html.ts";
import type { Outcome, View } from "../../page.ts";
import { checkbox, formOpen, pageHead, submit, table } from "../components.ts";
import { when } from "../forms.ts";
import { SCOPE_TEXT } from "../scopes.ts";
import { tickedToolsets, toolsetCheckboxes } from "../toolsets.ts";
import type { AdminRequest } from "../site.ts";

type Grant = z.output<typeof listGrants.output>[number];

const UID = /^[\w-]{1,100}$/;

function expired(): View {
  return {
    status: 400,
    title: "Forespørgslen er udløbet",
    main: html`<section class="card auth-card"><h1>Forespørgslen er udløbet</h1>
<p>Appens forespørgsel om adgang findes ikke længere, eller den blev startet i en anden browser. Start forbindelsen forfra i appen.</p>
<p><a href="/admin">Til administrationen</a></p></section>`,
  };
}

async function pendingOf(web: AdminRequest, uid: string): Promise<PendingAuthorization | undefined> {
  if (!UID.test(uid)) return undefined;
  try {
    const pending = await web.deps.oauth.pending(web.req, web.res);
    return pending.uid === uid && pending.audience === "staff" ? pending : undefined;
  } catch {
    return undefined;
  }
}

/** The consent form answered again (400), with why and the staff user's own ticks kept. */
interface Refused {
  message: string;
  scopes: string[];
  toolsets: string[];
}

export async function consentPage(web: AdminRequest, uid: string): Promise<Outcome> {
  const pending = await pendingOf(web, uid);
  if (!pending) return expired();
  return consentView(web, pending);
}

function consentView(web: AdminRequest, pending: PendingAuthorization, refused?: Refused): View {
  const held = web.staff.caller.scopes;
  const grantable = pending.scopes.filter((scope) => mayGrant(held, scope));
  const lacking = pending.scopes.filter((scope) => !mayGrant(held, scope));
  const name = appName(pending);
  const returnHost = hostOf(pending.redirectUri);
  const returnOrigin = pending.redirectUri ? new URL(pending.redirectUri).origin : "";
  const toolsets = toolsetCheckboxes(web.deps.registry.tools, (area) => (refused ? refused.toolsets.includes(area) : true));
  return {
    ...(refused ? { status: 400 } : {}),
    title: `Giv ${name} adgang`,
    noindex: true,
    // The form's answer redirects back to the app: its address must be a permitted form target.
    headers: { "Content-Security-Policy": CONTENT_SECURITY_POLICY.replace("form-action 'self'", `form-action 'self'${returnOrigin ? ` ${returnOrigin}` : ""}`) },
    main: html`<section class="card auth-card consent-card">
<h1>${name} vil have adgang til butikken</h1>
<p>Du er logget ind som <strong>${web.staff.staff.email}</strong>. Appen handler som dig, med de adgange du giver den her, og alt den ændrer, står i ændringsloggen under dit navn.</p>
<dl class="consent-facts">
<dt>App</dt><dd><code>${pending.clientId}</code>${pending.clientUri ? html` · <a href="${pending.clientUri}" rel="noopener noreferrer">${hostOf(pending.clientUri) ?? pending.clientUri}</a>` : ""}</dd>
${returnHost ? html`<dt>Vender tilbage til</dt><dd>${returnHost}</dd>` : ""}
</dl>
${refused ? html`<div class="notice notice-error" role="alert">${refused.message}</div>` : ""}
${formOpen(web, `/admin/oauth/${pending.uid}`)}
<fieldset class="scopes"><legend>Appen må</legend>
${grantable.length ? html`<div class="consent-scopes">${grantable.map((scope) => checkbox({ name: "scopes", value: scope, label: SCOPE_TEXT[scope] ?? scope, hint: scope, checked: refused ? refused.scopes.includes(scope) : true }))}</div>` : html`<p class="hint">Appen bad ikke om noget, du selv har adgang til.</p>`}
</fieldset>
<fieldset class="scopes"><legend>Værktøjer appen må bruge</legend>
<p class="hint">Butikkens områder. Fjern fluebenet ved dem, appen ikke skal bruge: den ser så kun værktøjerne i resten (en kortere værktøjsliste), og kald uden for dem afvises.</p>
<div class="scope-grid toolset-grid">${toolsets}</div>
</fieldset>
${lacking.length ? html`<p class="hint">Appen bad også om ${lacking.length === 1 ? "en adgang" : `${lacking.length} adgange`}, du ikke selv har, og får ${lacking.length === 1 ? "den" : "dem"} ikke: ${lacking.map((scope) => html`<span class="tag">${scope}</span> `)}</p>` : ""}
<p class="hint">Du kan altid afbryde forbindelsen under <a href="/admin/apps">Forbundne apps</a>.</p>
<div class="form-actions">
<button type="submit" name="decision" value="allow" class="button">Giv adgang</button>
<button type="submit" name="decision" value="deny" class="button button-secondary">Afvis</button>
</div>
</form></section>`,
  };
}

export async function consentAction(web: AdminRequest, uid: string): Promise<Outcome> {
  const pending = await pendingOf(web, uid);
  if (!pending) return expired();
  if (web.field("decision") !== "allow") return { redirect: await web.deps.oauth.deny(web.req, web.res), external: true };
  const body = web.req.body as Record<string, unknown>;
  const ticked = ([] as unknown[]).concat(body.scopes ?? []).filter((scope): scope is string => typeof scope === "string");
  const scopes = ticked.filter((scope) => pending.scopes.includes(scope) && mayGrant(web.staff.caller.scopes, scope));
  const toolsets = tickedToolsets(body);
  // No toolset is no tool at all: refused here rather than a grant the app cannot use.
  if (!toolsets.length) return consentView(web, pending, { message: "Vælg mindst ét område under “Værktøjer appen må bruge”. Uden værktøjer kan appen ikke gøre noget.", scopes, toolsets });
  // Every toolset ticked: no limit (new areas are the app's too).
  const limit = toolsets.length === TOOLSETS.length ? undefined : toolsets;
  const next = await web.deps.oauth.approve(web.req, web.res, web.staff.staff.id, scopes, limit);
  web.deps.log.info("oauth access granted", { staffId: web.staff.staff.id, clientId: pending.clientId, scopes: scopes.join(" "), toolsets: limit?.join(" ") ?? "*" });
  return { redirect: next, external: true };
}

function grantRow(web: AdminRequest, grant: Grant): HtmlValue[] {
  return [
    html`<strong>${grant.clientName ?? hostOf(grant.clientId) ?? grant.clientId}</strong><br><code class="hint">${grant.clientId}</code>`,
    grant.staffEmail ?? grant.staffId,
    html`${grant.scopes.map((scope) => html`<span class="tag" title="${SCOPE_TEXT[scope] ?? ""}">${scope}</span> `)}${grant.toolsets ? html`<br><span class="hint">Kun værktøjssæt: ${grant.toolsets.join(", ")}</span>` : ""}`,
    when(grant.createdAt),
    grant.lastUsedAt ? when(grant.lastUsedAt) : html`<span class="hint">aldrig</span>`,
    html`${formOpen(web, `/admin/apps/${grant.id}/revoke`, html` class="inline-form" data-confirm="Afbryd forbindelsen til ${grant.clientName ?? grant.clientId}? Appen mister adgangen med det samme."`)}${submit(web, revokeGrant, "Afbryd")}</form>`,
  ];
}

export async function connectedAppsPage(web: AdminRequest): Promise<View> {
  const grants = await web.call(listGrants, {});
  return {
    title: "Forbundne apps",
    main: html`${pageHead("Forbundne apps", { lead: html`Apps, som medarbejdere har givet adgang til butikken over OAuth (fx Claude eller ChatGPT via MCP). En app handler som den medarbejder, der gav adgangen, og kun med de adgange, vedkommende har. Sådan forbindes en app: <a href="/docs/mcp">MCP-klienter</a>.` })}
${grants.length ? table("Forbundne apps", ["App", "Medarbejder", "Adgange", "Forbundet", "Sidst brugt", ""], grants.map((grant) => grantRow(web, grant))) : emptyState("Ingen forbundne apps", "Når en medarbejder giver en app adgang, står den her.")}`,
  };
}

export async function revokeGrantAction(web: AdminRequest, id: string): Promise<Outcome> {
  if (!/^[\w-]{1,200}$/.test(id)) throw new NotFound(`No connected app "${id}".`);
  return web.act("/admin/apps", async () => {
    await web.call(revokeGrant, { id });
    return "Forbindelsen er afbrudt. Appen har ikke længere adgang.";
  });
}
