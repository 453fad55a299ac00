// The admin chrome: a side bar with the sections (those the staff user's scopes cannot read shown disabled), the
// signed-in user with sign-out, the flash message above each page, and the admin's error pages.
import type { Request } from "express";
import type { ToolError } from "../../core/errors.ts";
import type { SignedInStaff } from "../../http/staff-auth.ts";
import { hasScope, type Scope } from "../../tools/scopes.ts";
import type { Assets } from "../assets.ts";
import { documentHtml } from "../document.ts";
import { html, raw, type Html } from "../html.ts";
import type { View } from "../page.ts";
import type { Flash } from "./flash.ts";
import { problemText } from "./problems.ts";

/** What the chrome reads of an admin request (an AdminRequest of src/web/admin/site.ts, which renders with this module). */
export interface ChromeRequest {
  readonly req: Request;
  readonly site: { readonly assets: Assets };
  readonly signedIn: SignedInStaff | undefined;
  csrfField(): Html;
  flash(): Flash | undefined;
}

interface NavEntry {
  href: string;
  label: string;
  /** The scope needed to read the section; null: every staff user. */
  scope: Scope | null;
}

const NAV: readonly NavEntry[] = [
  { href: "/admin", label: "Overblik", scope: null },
  { href: "/admin/orders", label: "Ordrer", scope: "orders:read" },
  { href: "/admin/returns", label: "Returneringer", scope: "returns:read" },
  { href: "/admin/support", label: "Kundeservice", scope: "support:read" },
  { href: "/admin/credit", label: "Tilgodehavender", scope: "giftcards:read" },
  { href: "/admin/products", label: "Produkter", scope: "catalog:read" },
  { href: "/admin/categories", label: "Kategorier", scope: "catalog:read" },
  { href: "/admin/discounts", label: "Rabatkoder", scope: "discounts:read" },
  { href: "/admin/pages", label: "Sider", scope: "pages:read" },
  { href: "/admin/services", label: "Ydelser", scope: "pages:read" },
  { href: "/admin/marketing", label: "Nyhedsbreve", scope: "marketing:write" },
  { href: "/admin/settings", label: "Indstillinger", scope: "settings:read" },
  { href: "/admin/audit", label: "Ændringslog", scope: "audit:read" },
  { href: "/admin/staff", label: "Medarbejdere", scope: "staff:read" },
  { href: "/admin/api-keys", label: "API-nøgler", scope: "keys:read" },
  { href: "/admin/apps", label: "Forbundne apps", scope: "keys:read" },
  { href: "/admin/webhooks", label: "Webhooks", scope: "webhooks:read" },
  { href: "/admin/assistant", label: "Assistent", scope: null },
];

const MARK = raw('<svg class="brand-mark" viewBox="0 0 64 32" aria-hidden="true" focusable="false"><circle cx="16" cy="17" r="11"/><circle cx="48" cy="17" r="11"/><path d="M27 15q5-5 10 0"/></svg>');

/** The section a path belongs to: the longest NAV href that prefixes it. */
function sectionOf(path: string): string | undefined {
  return NAV.map((entry) => entry.href)
    .filter((href) => path === href || path.startsWith(`${href}/`))
    .sort((a, b) => b.length - a.length)[0];
}

function sidebar(web: ChromeRequest): Html {
  const staff = web.signedIn;
  if (!staff) return html`<header class="admin-top"><span class="admin-brand">${MARK} Butiksadmin</span></header>`;
  const section = sectionOf(web.req.path);
  const items = NAV.map((entry) => {
    if (entry.scope && !hasScope(staff.caller.scopes, entry.scope)) {
      return html`<li><span class="nav-disabled" title="Kræver adgangen ${entry.scope}">${entry.label}</span></li>`;
    }
    return html`<li><a href="${entry.href}"${entry.href === section ? html` aria-current="page"` : ""}>${entry.label}</a></li>`;
  });
  return html`<header class="admin-side">
<a class="admin-brand" href="/admin">${MARK} Butiksadmin</a>
<nav class="admin-nav" aria-label="Administration"><ul>${items}</ul></nav>
<div class="admin-user">
<span class="admin-who" title="${staff.staff.email}">${staff.staff.email}</span>
<form method="post" action="/admin/logout">${web.csrfField()}<button type="submit" class="button-link">Log ud</button></form>
<a class="admin-storefront" href="/">Se butikken ↗</a>
<a class="admin-storefront" href="/docs">API-dokumentation</a>
</div>
</header>`;
}

function flashHtml(flash: Flash | undefined): Html {
  if (!flash) return html``;
  return html`<div class="notice notice-${flash.kind === "ok" ? "success" : "error"}" role="${flash.kind === "ok" ? "status" : "alert"}">${flash.text}</div>`;
}

export function adminDocument(web: ChromeRequest, view: View): Html {
  return documentHtml(web.site.assets, {
    title: `${view.title} · Butiksadmin`,
    noindex: true,
    styles: ["admin.css"],
    scripts: ["site.js", "admin.js", ...(view.scripts ?? [])],
    icon: "icon.svg",
    bodyClass: web.signedIn ? "admin" : "admin admin-bare",
    header: sidebar(web),
    main: html`${flashHtml(web.flash())}${view.main}`,
    footer: html``,
  });
}

const TITLES: Record<number, string> = {
  400: "Det kunne ikke læses",
  403: "Det har du ikke adgang til",
  404: "Findes ikke",
  409: "Findes allerede",
  413: "For meget data",
  422: "Det kunne ikke lade sig gøre",
  429: "For mange forespørgsler",
  503: "Databasen svarer ikke",
};

/** An error page of the admin: a 4xx says what the shop said (tool details name scopes and rules); a 5xx only its id. */
export function adminFailure(error: ToolError, requestId: string): View {
  if (error.status >= 500) {
    return {
      status: error.status === 503 ? 503 : 500,
      title: "Der opstod en fejl",
      main: html`<div class="failure"><h1>Der opstod en fejl</h1><p>Noget gik galt. Prøv igen om lidt.</p><p class="hint">Fejl-id: <code>${requestId}</code></p><p><a class="button" href="/admin">Til overblikket</a></p></div>`,
    };
  }
  const title = TITLES[error.status] ?? "Det kunne ikke lade sig gøre";
  return {
    status: error.status,
    title,
    main: html`<div class="failure"><h1>${title}</h1><p>${problemText(error)}</p><p><a class="button" href="/admin">Til overblikket</a></p></div>`,
  };
}
