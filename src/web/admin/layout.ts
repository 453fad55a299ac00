// The admin document: header with the signed-in staff user and sign-out, the section navigation, the flash message.
import { escapeHtml } from "../html.ts";
import type { SignedInStaff } from "../../api/staff-auth.ts";
import { hasScope, type Scope } from "../../tools/scopes.ts";
import type { Flash } from "./flash.ts";

interface NavEntry {
  href: string;
  label: string;
  /** The scope needed to read the section; null: every staff user. */
  scope: Scope | null;
}

export const NAV: readonly NavEntry[] = [
  { href: "/admin", label: "Dashboard", scope: "analytics:read" },
  { href: "/admin/orders", label: "Orders", scope: "orders:read" },
  { href: "/admin/products", label: "Products", scope: "catalog:read" },
  { href: "/admin/categories", label: "Categories", scope: "catalog:read" },
  { href: "/admin/discounts", label: "Discounts", scope: "discounts:read" },
  { href: "/admin/pages", label: "Pages", scope: "pages:read" },
  { href: "/admin/services", label: "Services", scope: "pages:read" },
  { href: "/admin/marketing", label: "Marketing", scope: "marketing:write" },
  { href: "/admin/settings", label: "Settings", scope: "settings:read" },
  { href: "/admin/audit", label: "Audit log", scope: "audit:read" },
  { href: "/admin/api-keys", label: "API keys", scope: null },
  { href: "/admin/assistant", label: "Assistant", scope: null },
];

export interface Shell {
  title: string;
  /** Absent on the sign-in and setup pages. */
  staff?: SignedInStaff | undefined;
  flash?: Flash | undefined;
  /** The NAV href of the current section. */
  section?: string;
}

function navHtml(staff: SignedInStaff, section: string | undefined): string {
  const items = NAV.map((entry) => {
    const current = entry.href === section ? ' aria-current="page"' : "";
    if (entry.scope && !hasScope(staff.caller.scopes, entry.scope)) {
      return `<li><span class="nav-disabled" title="Needs the scope ${escapeHtml(entry.scope)}">${escapeHtml(entry.label)}</span></li>`;
    }
    return `<li><a href="${entry.href}"${current}>${escapeHtml(entry.label)}</a></li>`;
  });
  return `<nav class="admin-nav" aria-label="Admin sections"><ul>${items.join("")}</ul></nav>`;
}

export function flashHtml(flash: Flash | undefined): string {
  if (!flash) return "";
  const role = flash.kind === "error" ? "alert" : "status";
  return `<p class="flash flash-${flash.kind}" role="${role}">${escapeHtml(flash.text)}</p>`;
}

export function adminDocument(shell: Shell, main: string): string {
  const staff = shell.staff;
  const header = staff
    ? `<header class="admin-header">
<a class="brand" href="/admin">Shop admin</a>
<form method="post" action="/admin/logout" class="signout">
<input type="hidden" name="_csrf" value="${escapeHtml(staff.csrf)}">
<span class="who">${escapeHtml(staff.staff.email)}</span>
<button type="submit" class="link">Sign out</button>
</form>
</header>`
    : `<header class="admin-header"><span class="brand">Shop admin</span></header>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(shell.title)} · Shop admin</title>
<link rel="stylesheet" href="/admin/assets/admin.css">
</head>
<body class="${staff ? "admin" : "admin admin-bare"}">
${header}
<div class="admin-body">
${staff ? navHtml(staff, shell.section) : ""}
<main id="main">
${flashHtml(shell.flash)}
${main}
</main>
</div>
</body>
</html>
`;
}
