// Scopes as the staff reads them: a Danish line per scope, the groups the staff page shows them in, and the grouped
// checkboxes of a scope form (only scopes the signed-in staff user holds can be ticked; the tools refuse the rest).
import { html, type Html } from "../html.ts";
import { mayGrant, WILDCARD } from "../../tools/scopes.ts";
import { checkbox } from "./components.ts";

export const SCOPE_TEXT: Record<string, string> = {
  "analytics:read": "Nøgletal, salg, bedst sælgende, forladte kurve",
  "audit:read": "Læse ændringsloggen",
  "audit:revert": "Fortryde ændringer",
  "cart:write": "Kurv og tjekud i en kundesession (butikschat, agenter)",
  "catalog:read": "Sortiment, kategorier, varianter, politikker, adresser",
  "categories:read": "Kategorier (bruges ikke af noget værktøj; brug catalog:read)",
  "categories:write": "Oprette, rette og slette kategorier",
  "checkout:agent": "AI-agenters tjekud (UCP/ACP)",
  "customer:read": "Kunder og deres ordrer",
  "customer:write": "Rette kunders adressebog",
  "discounts:read": "Læse rabatkoder",
  "discounts:write": "Oprette, rette og slette rabatkoder",
  "features:read": "Læse funktionsflag",
  "features:write": "Slå funktioner til og fra",
  "giftcards:read": "Se gavekort og deres saldo",
  "giftcards:write": "Udstede og indløse gavekort",
  "keys:read": "Se API-nøglerne (aldrig selve nøglerne)",
  "keys:write": "Oprette, tilbagekalde og ændre API-nøgler, med adgange man selv har",
  "marketing:write": "Nyhedsbreve og tilmeldte",
  "metrics:read": "Driftsmålinger i Prometheus-format (GET /metrics; intet værktøj)",
  "orders:read": "Læse ordrer og deres historik",
  "orders:write": "Oprette og behandle ordrer: status, forsendelse, refusion",
  "pages:read": "Læse sider og ydelser",
  "pages:write": "Oprette, rette og slette sider og ydelser",
  "products:read": "Produkter (bruges ikke af noget værktøj; brug catalog:read)",
  "products:write": "Oprette, rette og slette produkter, billeder, lager",
  "returns:read": "Se returneringer og refusionsfrister",
  "returns:write": "Godkende, afvise og modtage returneringer: refusion eller ombytning",
  "settings:read": "Læse indstillinger",
  "settings:write": "Ændre indstillinger",
  "staff:read": "Se medarbejdere og deres adgange",
  "staff:write": "Oprette og slette medarbejdere, give dem adgange og nye adgangskoder",
  "support:read": "Læse kundeservicehenvendelser",
  "support:write": "Svare på og lukke kundeservicehenvendelser",
  "webhooks:read": "Se webhooks og deres leveringslog (aldrig hemmelighederne)",
  "webhooks:write": "Oprette, teste, slå til og slette webhooks, sende leveringer igen",
};

/** The scopes by the part of the shop they open, for the staff page (every grantable scope in exactly one group). */
export const SCOPE_GROUPS: ReadonlyArray<{ title: string; scopes: readonly string[] }> = [
  { title: "Ordrer og kunder", scopes: ["orders:read", "orders:write", "customer:read", "customer:write", "returns:read", "returns:write", "support:read", "support:write", "giftcards:read", "giftcards:write"] },
  { title: "Sortiment og rabatter", scopes: ["catalog:read", "products:read", "products:write", "categories:read", "categories:write", "discounts:read", "discounts:write"] },
  { title: "Indhold, markedsføring og tal", scopes: ["pages:read", "pages:write", "marketing:write", "analytics:read"] },
  { title: "Butikken og drift", scopes: ["settings:read", "settings:write", "features:read", "features:write", "audit:read", "audit:revert", "metrics:read"] },
  { title: "Medarbejdere og integrationer", scopes: ["staff:read", "staff:write", "keys:read", "keys:write", "webhooks:read", "webhooks:write", "checkout:agent", "cart:write"] },
];

/** A scope in Danish words ("*": every scope). */
export function scopeText(scope: string): string {
  if (scope === WILDCARD) return "Alle adgange, også fremtidige";
  return SCOPE_TEXT[scope] ?? scope;
}

/**
 * The grouped scope checkboxes of a staff form: `checked` ticked; a scope `granted` lacks is shown disabled (the tools
 * refuse it anyway), `*` only to holders of `*`. With `legend` the groups sit in a fieldset of that name.
 */
export function scopeGroups(granted: ReadonlySet<string>, options: { checked?: readonly string[]; legend?: string } = {}): Html {
  const checked = options.checked ?? [];
  const box = (scope: string, label: string, hint: string) =>
    checkbox({
      name: "scopes",
      value: scope,
      label,
      hint: `${hint}${mayGrant(granted, scope) ? "" : " · du har ikke selv denne adgang"}`,
      checked: checked.includes(scope),
      disabled: !mayGrant(granted, scope),
    });
  const groups = html`<p class="hint">Giv kun det, medarbejderen skal bruge. Du kan kun give adgange, du selv har.</p>
${SCOPE_GROUPS.map((group) => html`<fieldset class="scope-group"><legend>${group.title}</legend><div class="scope-grid">${group.scopes.map((scope) => box(scope, scopeText(scope), scope))}</div></fieldset>`)}
<div class="scope-admin">${box(WILDCARD, "Alle adgange (*)", "Hver adgang, også fremtidige: til ejere.")}</div>`;
  return options.legend ? html`<fieldset class="scopes"><legend>${options.legend}</legend>${groups}</fieldset>` : groups;
}
