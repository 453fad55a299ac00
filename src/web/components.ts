// Small view components shared by the storefront and the admin: form fields, notices, prices, breadcrumbs, pagination, error pages.
import type { ToolError } from "../core/errors.ts";
import { formatMoney, html, type Html } from "./html.ts";
import type { View } from "./page.ts";

export interface FieldOptions {
  name: string;
  label: string;
  type?: "text" | "email" | "tel" | "number" | "password" | "search" | "url" | "hidden" | "date" | "datetime-local";
  value?: string | number | undefined;
  required?: boolean;
  autocomplete?: string;
  inputmode?: "numeric" | "decimal" | "email" | "tel" | "search" | "text";
  pattern?: string;
  min?: number;
  max?: number;
  maxlength?: number;
  placeholder?: string;
  hint?: string;
  /** An error message for this field: marks it invalid and describes it. */
  error?: string | undefined;
  /** Id of the input (defaults to `f-<name>`), for labels and scripts. */
  id?: string;
  /** data-* attributes for client enhancements, without the "data-" prefix. */
  data?: Record<string, string>;
}

/** A labelled input with optional hint and error, wired with aria-describedby / aria-invalid. */
export function field(options: FieldOptions): Html {
  const id = options.id ?? `f-${options.name}`;
  const described = [options.hint ? `${id}-hint` : "", options.error ? `${id}-error` : ""].filter(Boolean).join(" ");
  const data = Object.entries(options.data ?? {}).map(([key, value]) => html` data-${key}="${value}"`);
  return html`<div class="field${options.error ? " field-invalid" : ""}">
<label for="${id}">${options.label}${options.required ? "" : html` <span class="optional">(valgfri)</span>`}</label>
${options.hint ? html`<p class="hint" id="${id}-hint">${options.hint}</p>` : ""}
<input id="${id}" name="${options.name}" type="${options.type ?? "text"}"${options.value !== undefined ? html` value="${options.value}"` : ""}${options.required ? " required" : ""}${options.autocomplete ? html` autocomplete="${options.autocomplete}"` : ""}${options.inputmode ? html` inputmode="${options.inputmode}"` : ""}${options.pattern ? html` pattern="${options.pattern}"` : ""}${options.min !== undefined ? html` min="${options.min}"` : ""}${options.max !== undefined ? html` max="${options.max}"` : ""}${options.maxlength !== undefined ? html` maxlength="${options.maxlength}"` : ""}${options.placeholder ? html` placeholder="${options.placeholder}"` : ""}${described ? html` aria-describedby="${described}"` : ""}${options.error ? html` aria-invalid="true"` : ""}${data}>
${options.error ? html`<p class="field-error" id="${id}-error">${options.error}</p>` : ""}
</div>`;
}

export type NoticeKind = "info" | "success" | "error";

/** A message box; errors are announced at once (role=alert), the others politely (role=status). */
export function notice(kind: NoticeKind, message: string | Html): Html {
  return html`<div class="notice notice-${kind}" role="${kind === "error" ? "alert" : "status"}">${message}</div>`;
}

/** A price in the shop currency from minor units; `was` shows a struck-through earlier price. */
export function price(minor: number, currency: string, was?: number): Html {
  return html`<span class="price">${formatMoney(minor, currency)}</span>${was !== undefined && was > minor ? html` <s class="price-was">${formatMoney(was, currency)}</s>` : ""}`;
}

/** A trail of links to where a page sits; the last item is the current page. */
export function breadcrumbs(items: Array<{ label: string; href?: string }>): Html {
  return html`<nav class="breadcrumbs" aria-label="Brødkrumme"><ol>${items.map((item, index) =>
    index === items.length - 1 || !item.href ? html`<li><span aria-current="page">${item.label}</span></li>` : html`<li><a href="${item.href}">${item.label}</a></li>`,
  )}</ol></nav>`;
}

/** Previous/next page links; `href(page)` builds the address of a page (1-based). */
export function pagination(page: number, hasNext: boolean, href: (page: number) => string): Html {
  if (page <= 1 && !hasNext) return html``;
  return html`<nav class="pagination" aria-label="Sider">
${page > 1 ? html`<a class="button button-secondary" rel="prev" href="${href(page - 1)}">← Forrige</a>` : html`<span></span>`}
<span class="pagination-current">Side ${page}</span>
${hasNext ? html`<a class="button button-secondary" rel="next" href="${href(page + 1)}">Næste →</a>` : html`<span></span>`}
</nav>`;
}

/** An empty list, said kindly, with a way on. */
export function emptyState(title: string, text: string, action?: { label: string; href: string }): Html {
  return html`<div class="empty-state">
<h2>${title}</h2>
<p>${text}</p>
${action ? html`<p><a class="button" href="${action.href}">${action.label}</a></p>` : ""}
</div>`;
}

const FAILURES: Record<number, { title: string; text: string }> = {
  400: { title: "Ugyldig forespørgsel", text: "Adressen eller formularen indeholder noget, vi ikke kan bruge." },
  403: { title: "Det er ikke tilladt", text: "Du har ikke adgang til dette, eller formularen er udløbet. Gå tilbage, genindlæs siden og prøv igen." },
  404: { title: "Siden findes ikke", text: "Vi kunne ikke finde den side, du leder efter." },
  413: { title: "For meget data", text: "Formularen er for stor." },
  429: { title: "For mange forespørgsler", text: "Vent et øjeblik, og prøv så igen." },
  503: { title: "Midlertidigt utilgængelig", text: "Vi kan ikke nå vores database lige nu. Prøv igen om lidt." },
};

/**
 * The default view of a failure: a clear title and text per status; the detail of 4xx tool errors (written for
 * clients) is shown for 400/422, never anything of a 5xx but the request id.
 */
export function failureView(error: ToolError, requestId: string, home = "/"): View {
  const status = error.status === 401 ? 403 : error.status;
  const known = FAILURES[status];
  if (known) {
    const detail = status === 400 ? html`<p class="hint">${error.message}</p>` : "";
    return { status, title: known.title, noindex: true, main: html`<div class="failure"><h1>${known.title}</h1><p>${known.text}</p>${detail}<p><a class="button" href="${home}">Gå til forsiden</a></p></div>` };
  }
  if (status < 500) {
    return { status, title: "Det kunne ikke lade sig gøre", noindex: true, main: html`<div class="failure"><h1>Det kunne ikke lade sig gøre</h1><p>${error.message}</p><p><a class="button" href="${home}">Gå til forsiden</a></p></div>` };
  }
  return { status: 500, title: "Der opstod en fejl", noindex: true, main: html`<div class="failure"><h1>Der opstod en fejl</h1><p>Noget gik galt hos os. Prøv igen om lidt.</p><p class="hint">Fejl-id: <code>${requestId}</code></p><p><a class="button" href="${home}">Gå til forsiden</a></p></div>` };
}

/** The host of a URL, or null when there is none or it is no URL. */
export function hostOf(url: string | null): string | null {
  if (!url) return null;
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}

/** An OAuth app's name as it gave it, else the host of its client id (a metadata document's URL) or the id itself. */
export function appName(app: { clientName: string | null; clientId: string }): string {
  return app.clientName || hostOf(app.clientId) || app.clientId;
}
