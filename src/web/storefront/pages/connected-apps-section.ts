// "Forbundne apps" on /account: the apps the shopper let act for them over OAuth (user.list_apps), each with what it may
// do and a button that disconnects it (POST /account/apps/:id/revoke, src/web/storefront/pages/connected-apps.ts).
import type { z } from "zod";
import { SHOPPER_SCOPE_TEXT } from "../../../tools/keys/shopper-scopes.ts";
import listApps from "../../../tools/user/list_apps.ts";
import { appName } from "../../components.ts";
import { html, type Html } from "../../html.ts";
import type { StorefrontRequest } from "../site.ts";
import { formatDate } from "./orders.ts";

type App = z.output<typeof listApps.output>[number];

/** The "Forbundne apps" section of /account: nothing when the shopper has connected no app. */
export async function connectedAppsSection(web: StorefrontRequest): Promise<Html> {
  const apps = await web.call(listApps, {});
  if (apps.length === 0) return html``;
  return html`<section class="connected-apps" id="apps" aria-labelledby="apps-title">
<h2 id="apps-title">Forbundne apps</h2>
<p class="hint">Apps, du har givet adgang til at handle for dig (fx en AI-assistent). Afbryder du forbindelsen, mister appen adgangen med det samme.</p>
<ul class="order-list">${apps.map((app) => appRow(web, app))}</ul>
</section>`;
}

function appRow(web: StorefrontRequest, app: App): Html {
  return html`<li class="card order-card app-card">
<div><strong>${appName(app)}</strong>
<p class="hint">${app.scopes.map((scope) => SHOPPER_SCOPE_TEXT[scope] ?? scope).join(" · ") || "Ingen adgange"}</p>
<p class="hint">Forbundet ${formatDate(app.createdAt)}${app.lastUsedAt ? ` · sidst brugt ${formatDate(app.lastUsedAt)}` : ""}</p></div>
<form class="order-card-side" action="/account/apps/${app.id}/revoke" method="post">${web.csrfField()}<button class="button button-secondary button-small" type="submit">Afbryd</button></form>
</li>`;
}
