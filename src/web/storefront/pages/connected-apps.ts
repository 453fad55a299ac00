// Shoppers and OAuth apps. /account/oauth/:uid: an app (an AI assistant over MCP, a UCP shopping agent) asks to act for
// the shopper; the shopper signs in with the storefront's e-mail code (the /account forms, coming back here), then a
// Danish consent page names the app and what it may do, each shopper scope its own checkbox. "Forbundne apps" on
// /account lists the shopper's own grants and disconnects one (user.list_apps, user.revoke_app).
import { NotFound } from "../../../core/errors.ts";
import type { PendingAuthorization } from "../../../http/oauth-interactions.ts";
import { SHOPPER_SCOPE_TEXT } from "../../../tools/keys/shopper-scopes.ts";
import revokeApp from "../../../tools/user/revoke_app.ts";
import { appName, hostOf, notice } from "../../components.ts";
import { CONTENT_SECURITY_POLICY } from "../../headers.ts";
import { html } from "../../html.ts";
import type { Outcome, View } from "../../page.ts";
import type { StorefrontRequest } from "../site.ts";
import { loginView } from "./account.ts";

const UID = /^[\w-]{1,100}$/;

function expired(): View {
  return {
    status: 400,
    title: "Forespørgslen er udløbet",
    noindex: true,
    main: html`<div class="narrow"><h1>Forespørgslen er udløbet</h1>
<p>Appens forespørgsel om adgang til din konto findes ikke længere, eller den blev startet i en anden browser. Start forbindelsen forfra i appen.</p>
<p><a href="/account">Til din konto</a></p></div>`,
  };
}

/** The shopper's authorization this browser is in the middle of, when `uid` names it. */
async function pendingOf(web: StorefrontRequest, uid: string): Promise<PendingAuthorization | undefined> {
  if (!UID.test(uid)) return undefined;
  try {
    const pending = await web.deps.oauth.pending(web.req, web.res);
    return pending.uid === uid && pending.audience === "shopper" ? pending : undefined;
  } catch {
    return undefined;
  }
}

/** GET /account/oauth/:uid: sign in first (the e-mail code brings the shopper back here), then the consent form. */
export async function shopperConsentPage(web: StorefrontRequest, uid: string): Promise<View> {
  const pending = await pendingOf(web, uid);
  if (!pending) return expired();
  const caller = await web.caller();
  const name = appName(pending);
  if (!caller.session?.customerId) {
    const messages = notice("info", html`<strong>${name}</strong> beder om adgang til din konto. Log ind med din e-mail, så kan du se, hvad appen beder om, før du svarer.`);
    return loginView(web, { messages, next: `/account/oauth/${pending.uid}` });
  }
  const customer = await web.deps.sessions.view(caller.session, false);
  const returnHost = hostOf(pending.redirectUri);
  const returnOrigin = pending.redirectUri ? new URL(pending.redirectUri).origin : "";
  return {
    title: `Giv ${name} adgang`,
    noindex: true,
    // The form's answer redirects back to the app: its address must be a permitted form target.
    headers: { "Content-Security-Policy": CONTENT_SECURITY_POLICY.replace("form-action 'self'", `form-action 'self'${returnOrigin ? ` ${returnOrigin}` : ""}`) },
    main: html`<div class="narrow consent">
<h1>${name} vil have adgang til din konto</h1>
<p>Du er logget ind som <strong>${customer.customer?.email ?? ""}</strong>. Appen handler for dig i butikken med de adgange, du giver den her. Den kan ikke se dine betalingsoplysninger, og den kan ikke betale uden dig.</p>
<dl class="consent-facts">
<dt>App</dt><dd><code>${pending.clientId}</code>${pending.clientUri ? html` · <a href="${pending.clientUri}" rel="noopener noreferrer">${hostOf(pending.clientUri) ?? pending.clientUri}</a>` : ""}</dd>
${returnHost ? html`<dt>Vender tilbage til</dt><dd>${returnHost}</dd>` : ""}
</dl>
<form class="card login-form" action="/account/oauth/${pending.uid}" method="post">
${web.csrfField()}
<fieldset class="consent-scopes"><legend>Appen må</legend>
${pending.scopes.length
  ? pending.scopes.map((scope) => html`<div class="check"><input type="checkbox" id="s-${scope.replace(/[^\w-]/g, "_")}" name="scopes" value="${scope}" checked><label for="s-${scope.replace(/[^\w-]/g, "_")}">${SHOPPER_SCOPE_TEXT[scope] ?? scope}</label></div>`)
  : html`<p class="hint">Appen bad ikke om noget bestemt. Den kan kun se, at du er logget ind.</p>`}
</fieldset>
<p class="hint">Du kan altid afbryde forbindelsen under <a href="/account#apps">Forbundne apps</a> på din konto.</p>
<div class="consent-actions">
<button type="submit" name="decision" value="allow" class="button">Giv adgang</button>
<button type="submit" name="decision" value="deny" class="button button-secondary">Afvis</button>
</div>
</form>
</div>`,
  };
}

/** POST /account/oauth/:uid: the shopper's answer; back to the app either way. */
export async function shopperConsentAction(web: StorefrontRequest, uid: string): Promise<Outcome> {
  const pending = await pendingOf(web, uid);
  if (!pending) return expired();
  const caller = await web.caller();
  const customerId = caller.session?.customerId;
  if (!customerId) return { redirect: `/account/oauth/${pending.uid}` };
  if (web.field("decision") !== "allow") return { redirect: await web.deps.oauth.deny(web.req, web.res), external: true };
  const body = web.req.body as Record<string, unknown>;
  const ticked = ([] as unknown[]).concat(body.scopes ?? []).filter((scope): scope is string => typeof scope === "string");
  const scopes = ticked.filter((scope) => pending.scopes.includes(scope));
  const next = await web.deps.oauth.approveShopper(web.req, web.res, customerId, scopes);
  web.deps.log.info("oauth access granted", { customerId, clientId: pending.clientId, scopes: scopes.join(" ") });
  return { redirect: next, external: true };
}

/** POST /account/apps/:id/revoke. */
export async function revokeAppAction(web: StorefrontRequest, id: string): Promise<Outcome> {
  if (!/^[\w-]{1,200}$/.test(id)) throw new NotFound(`No connected app "${id}".`);
  await web.call(revokeApp, { id });
  return { redirect: "/account?notice=app-revoked#apps" };
}

