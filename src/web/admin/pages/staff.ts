// /admin/staff ("Medarbejdere"): the staff users with their scopes in Danish and last sign-in, an invitation by e-mail
// with the scopes as grouped checkboxes, and per user a page to change scopes, e-mail a reset link and delete
// (staff.list, staff.create {invite}, staff.set_scopes, staff.reset_password {sendLink}, staff.delete: the tools keep
// a staff user within their own scopes, refuse deleting oneself or the last owner, and audit every change).
import type { z } from "zod";
import { NotFound, toToolError } from "../../../core/errors.ts";
import createStaff from "../../../tools/staff/create.ts";
import deleteStaff from "../../../tools/staff/delete.ts";
import listStaff from "../../../tools/staff/list.ts";
import resetPassword from "../../../tools/staff/reset_password.ts";
import setScopes from "../../../tools/staff/set_scopes.ts";
import { mayGrant, WILDCARD, type Grant } from "../../../tools/scopes.ts";
import { breadcrumbs, field as input } from "../../components.ts";
import { html, type Html, type HtmlValue } from "../../html.ts";
import type { Outcome, Redirect, View } from "../../page.ts";
import { actionButton, formOpen, needs, pageHead, submit, table } from "../components.ts";
import { when } from "../forms.ts";
import { scopeGroups, scopeText } from "../scopes.ts";
import type { AdminRequest } from "../site.ts";

type Staff = z.output<typeof listStaff.output>[number];

/** Refusals this page leads to, in Danish; anything else in the tool's words. */
const REFUSALS: Record<string, string> = {
  conflict: "Der findes allerede en medarbejder med den e-mail.",
  own_account: "Du kan ikke slette din egen bruger; det kan en anden medarbejder.",
  last_owner: "Det er den eneste medarbejder med alle adgange (*). Giv en anden alle adgange først.",
};

function refused(web: AdminRequest, back: string, error: unknown): Redirect {
  const mapped = toToolError(error);
  const danish = REFUSALS[mapped.code];
  return danish && mapped.status < 500 ? web.done(back, danish, "error") : web.refused(back, error);
}

function scopeList(scopes: readonly string[]): Html {
  if (scopes.includes(WILDCARD)) return html`<span class="tag tag-warn">Alle adgange</span>`;
  return html`<ul class="scope-list">${scopes.map((scope) => html`<li title="${scope}">${scopeText(scope)}</li>`)}</ul>`;
}

const lastSeen = (user: Staff): HtmlValue => (user.lastLoginAt ? html`<span class="nowrap">${when(user.lastLoginAt)}</span>` : html`<span class="hint">aldrig</span>`);

function row(web: AdminRequest, user: Staff): HtmlValue[] {
  const you = user.id === web.staff.staff.id ? html` <span class="tag tag-info">dig</span>` : "";
  return [html`<a href="/admin/staff/${user.id}">${user.email}</a>${you}`, scopeList(user.scopes), lastSeen(user), html`<span class="nowrap">${when(user.createdAt)}</span>`];
}

export async function staffPage(web: AdminRequest): Promise<View> {
  const users = await web.call(listStaff, {});
  return {
    title: "Medarbejdere",
    main: html`${pageHead("Medarbejdere", { lead: "Hvem der kan logge ind i administrationen, og hvad de må. Hver ændring står i ændringsloggen." })}
${table("Medarbejdere", ["E-mail", "Adgange", "Sidst logget ind", "Oprettet"], users.map((user) => row(web, user)))}
<section class="card"><h2>Invitér en medarbejder</h2>
<p class="hint">Medarbejderen får en e-mail med et link, hvor de selv vælger deres adgangskode. Linket virker i 7 dage.</p>
${formOpen(web, "/admin/staff")}
${input({ name: "email", label: "E-mail", type: "email", required: true, maxlength: 254, autocomplete: "off", placeholder: "navn@firma.dk" })}
${scopeGroups(web.staff.caller.scopes, { legend: "Adgange" })}
${submit(web, createStaff, "Send invitation")}
</form></section>`,
  };
}

/** The scopes ticked in a posted form. */
function postedScopes(web: AdminRequest): string[] {
  const body = web.req.body as Record<string, unknown>;
  return ([] as unknown[]).concat(body.scopes ?? []).filter((scope): scope is string => typeof scope === "string");
}

export async function inviteAction(web: AdminRequest): Promise<Outcome> {
  const scopes = postedScopes(web);
  if (!scopes.length) return web.done("/admin/staff", "Vælg mindst én adgang til medarbejderen.", "error");
  try {
    const { user } = await web.call(createStaff, { email: web.field("email"), scopes: scopes as Grant[], invite: true });
    return web.done("/admin/staff", `Invitationen er sendt til ${user.email}.`);
  } catch (error) {
    return refused(web, "/admin/staff", error);
  }
}

async function findUser(web: AdminRequest, id: string): Promise<Staff> {
  const user = /^[\w-]{1,100}$/.test(id) ? (await web.call(listStaff, {})).find((candidate) => candidate.id === id) : undefined;
  if (!user) throw new NotFound(`No staff user "${id}".`);
  return user;
}

function deleteCard(web: AdminRequest, user: Staff, manageable: boolean): Html {
  if (user.id === web.staff.staff.id) return html`<p class="hint">Du kan ikke slette din egen bruger; det kan en anden medarbejder.</p>`;
  const blocked = !web.may(deleteStaff) ? needs(deleteStaff) : manageable ? null : "Medarbejderen har adgange, du ikke selv har";
  return html`${formOpen(web, `/admin/staff/${user.id}/delete`, html` data-confirm="Slet ${user.email} for altid?"`)}
<div class="check"><input type="checkbox" id="f-confirm" name="confirm" value="true" required${blocked ? " disabled" : ""}><div><label for="f-confirm">Ja, slet ${user.email} for altid</label><span class="hint">Brugeren logges ud med det samme. Ændringsloggen beholder, hvad de har gjort.</span></div></div>
<button type="submit" class="button button-danger"${blocked ? html` disabled title="${blocked}"` : ""}>Slet medarbejder</button>
</form>`;
}

export async function staffUserPage(web: AdminRequest, id: string): Promise<View> {
  const user = await findUser(web, id);
  const granted = web.staff.caller.scopes;
  const manageable = user.scopes.every((scope) => mayGrant(granted, scope));
  const beyond = manageable ? "" : html`<div class="notice notice-info" role="status">${user.email} har adgange, du ikke selv har, så du kan ikke ændre brugeren.</div>`;
  return {
    title: user.email,
    main: html`${breadcrumbs([{ label: "Medarbejdere", href: "/admin/staff" }, { label: user.email }])}
${pageHead(user.email, { lead: `Sidst logget ind: ${user.lastLoginAt ? when(user.lastLoginAt) : "aldrig"} · oprettet ${when(user.createdAt)}` })}
${beyond}
<section class="card"><h2>Adgange</h2>
${formOpen(web, `/admin/staff/${user.id}/scopes`)}
${scopeGroups(granted, { checked: user.scopes })}
${manageable ? submit(web, setScopes, "Gem adgange") : html`<button type="submit" class="button" disabled>Gem adgange</button>`}
</form></section>
<section class="card"><h2>Adgangskode</h2>
<p>Send et link, hvor ${user.email} selv vælger en ny adgangskode. Linket virker i 1 time; den nuværende adgangskode virker, indtil linket bruges.</p>
${manageable ? actionButton(web, resetPassword, { action: `/admin/staff/${user.id}/reset-link`, label: "Send nulstillingslink", look: "secondary" }) : ""}
</section>
<section class="card danger-zone"><h2>Slet medarbejder</h2>
${deleteCard(web, user, manageable)}
</section>`,
  };
}

export async function staffUserAction(web: AdminRequest, id: string, action: string): Promise<Outcome> {
  const user = await findUser(web, id);
  const back = `/admin/staff/${user.id}`;
  try {
    switch (action) {
      case "scopes": {
        const scopes = postedScopes(web);
        if (!scopes.length) return web.done(back, "Vælg mindst én adgang.", "error");
        await web.call(setScopes, { email: user.email, scopes: scopes as Grant[] });
        return web.done(back, `Adgangene for ${user.email} er gemt.`);
      }
      case "reset-link":
        await web.call(resetPassword, { email: user.email, sendLink: true });
        return web.done(back, `Et link til en ny adgangskode er sendt til ${user.email}.`);
      case "delete":
        if (web.field("confirm") !== "true") return web.done(back, "Sæt flueben for at bekræfte sletningen.", "error");
        await web.call(deleteStaff, { email: user.email, confirm: true });
        return web.done("/admin/staff", `${user.email} er slettet.`);
    }
  } catch (error) {
    return refused(web, back, error);
  }
  throw new NotFound(`No staff action "${action}".`);
}

