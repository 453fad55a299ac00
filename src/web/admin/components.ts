// Small view pieces of the admin pages: action buttons that respect the staff user's scopes, form controls beyond
// the shared input, tables, status tags and the page header.
import type { z } from "zod";
import { field } from "../components.ts";
import { formatMoney, html, type Html, type HtmlValue } from "../html.ts";
import type { ObjectSchema, ToolDefinition } from "../../tools/tool.ts";
import type { AdminRequest } from "./site.ts";
import { ORDER_STATUS_HINTS, ORDER_STATUS_LABELS } from "./labels.ts";

export { ORDER_STATUS_HINTS, ORDER_STATUS_LABELS };

type Tool = ToolDefinition<ObjectSchema, z.ZodType>;

/** The title row of a page: heading, an optional line under it, and actions on the right. */
export function pageHead(title: string, options: { lead?: HtmlValue; actions?: HtmlValue } = {}): Html {
  return html`<div class="page-head">
<div><h1>${title}</h1>${options.lead ? html`<p class="lead">${options.lead}</p>` : ""}</div>
${options.actions ? html`<div class="page-actions">${options.actions}</div>` : ""}
</div>`;
}

/** Why a control is disabled: the scope the tool needs. */
export function needs(tool: Tool): string {
  return `Kræver adgangen ${tool.scope}`;
}

/** ` disabled` plus an explanation when the staff user may not call the tool. */
function disabledUnless(web: AdminRequest, tool: Tool): Html {
  return web.may(tool) ? html`` : html` disabled title="${needs(tool)}"`;
}

export interface ActionOptions {
  action: string;
  label: string;
  /** Hidden fields sent with the button. */
  fields?: Record<string, string>;
  /** Button look: "primary" (default), "secondary" or "danger". */
  look?: "primary" | "secondary" | "danger";
  /** A question the browser asks before sending (with the site script). */
  confirm?: string;
  small?: boolean;
}

/** A one-button form posting to `action`; shown disabled (with the reason) when the scope is missing. */
export function actionButton(web: AdminRequest, tool: Tool, options: ActionOptions): Html {
  const look = options.look === "danger" ? "button-danger" : options.look === "secondary" ? "button-secondary" : "";
  const hidden = Object.entries(options.fields ?? {}).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`);
  return html`<form method="post" action="${options.action}" class="inline-form"${options.confirm ? html` data-confirm="${options.confirm}"` : ""}>
${web.csrfField()}${hidden}<button type="submit" class="button ${look}${options.small ? " button-small" : ""}"${disabledUnless(web, tool)}>${options.label}</button>
</form>`;
}

/** The opening of a form whose submit buttons follow the tool's scope; close it with `</form>`. */
export function formOpen(web: AdminRequest, action: string, attributes: Html = html``): Html {
  return html`<form method="post" action="${action}"${attributes}>${web.csrfField()}`;
}

export function submit(web: AdminRequest, tool: Tool, label: string, look: "primary" | "secondary" = "primary"): Html {
  return html`<button type="submit" class="button${look === "secondary" ? " button-secondary" : ""}"${disabledUnless(web, tool)}>${label}</button>${
    web.may(tool) ? "" : html` <span class="hint">${needs(tool)}</span>`
  }`;
}

export interface TextareaOptions {
  name: string;
  label: string;
  value?: string | undefined;
  rows?: number;
  required?: boolean;
  maxlength?: number;
  hint?: string | undefined;
  error?: string | undefined;
  mono?: boolean;
  /** The element id, when one page has several fields of this name (default f-<name>). */
  id?: string;
}

export function textarea(options: TextareaOptions): Html {
  const id = options.id ?? `f-${options.name}`;
  const described = [options.hint ? `${id}-hint` : "", options.error ? `${id}-error` : ""].filter(Boolean).join(" ");
  return html`<div class="field${options.error ? " field-invalid" : ""}">
<label for="${id}">${options.label}${options.required ? "" : html` <span class="optional">(valgfri)</span>`}</label>
${options.hint ? html`<p class="hint" id="${id}-hint">${options.hint}</p>` : ""}
<textarea id="${id}" name="${options.name}" rows="${options.rows ?? 4}"${options.required ? " required" : ""}${options.maxlength ? html` maxlength="${options.maxlength}"` : ""}${options.mono ? html` class="mono" spellcheck="false"` : ""}${described ? html` aria-describedby="${described}"` : ""}${options.error ? ' aria-invalid="true"' : ""}>${options.value ?? ""}</textarea>
${options.error ? html`<p class="field-error" id="${id}-error">${options.error}</p>` : ""}
</div>`;
}

export function select(options: { name: string; label: string; value?: string; choices: Array<[string, string]>; hint?: string; optional?: boolean; id?: string }): Html {
  const id = options.id ?? `f-${options.name}`;
  return html`<div class="field">
<label for="${id}">${options.label}${options.optional ? html` <span class="optional">(valgfri)</span>` : ""}</label>
${options.hint ? html`<p class="hint">${options.hint}</p>` : ""}
<select id="${id}" name="${options.name}">${options.choices.map(
    ([value, label]) => html`<option value="${value}"${value === options.value ? " selected" : ""}>${label}</option>`,
  )}</select>
</div>`;
}

export function checkbox(options: { name: string; label: string; checked?: boolean; hint?: string; value?: string; disabled?: boolean }): Html {
  const id = `f-${options.name}${options.value ? `-${options.value.replace(/[^\w-]/g, "_")}` : ""}`;
  return html`<div class="check">
<input type="checkbox" id="${id}" name="${options.name}" value="${options.value ?? "on"}"${options.checked ? " checked" : ""}${options.disabled ? " disabled" : ""}${options.hint ? html` aria-describedby="${id}-hint"` : ""}>
<div><label for="${id}">${options.label}</label>${options.hint ? html`<span class="hint" id="${id}-hint">${options.hint}</span>` : ""}</div>
</div>`;
}

/** A table with a caption for screen readers; `numeric` column indexes are right-aligned. */
export function table(caption: string, head: string[], rows: HtmlValue[][], numeric: number[] = []): Html {
  const cell = (value: HtmlValue, index: number, tag: "td" | "th") => (numeric.includes(index) ? html`<${tag} class="num">${value}</${tag}>` : html`<${tag}>${value}</${tag}>`);
  return html`<div class="table-wrap"><table>
<caption class="visually-hidden">${caption}</caption>
<thead><tr>${head.map((label, index) => cell(label, index, "th"))}</tr></thead>
<tbody>${rows.map((row) => html`<tr>${row.map((value, index) => cell(value, index, "td"))}</tr>`)}</tbody>
</table></div>`;
}

/** Label/value pairs. */
export function facts(rows: Array<[string, HtmlValue]>): Html {
  return html`<dl class="facts">${rows.map(([label, value]) => html`<div><dt>${label}</dt><dd>${value === null || value === undefined || value === "" ? "—" : value}</dd></div>`)}</dl>`;
}

/** How an amount field names its unit: "kr." for DKK ("Fragt i kr."), else the currency code ("Fragt i USD"). */
export function unit(currency: string): string {
  return currency === "DKK" ? "kr." : currency;
}

/** An amount in the shop currency (`web.currency()`), "—" for none. */
export function money(minor: number | null | undefined, currency: string): string {
  return minor === null || minor === undefined ? "—" : formatMoney(minor, currency);
}

/** A number of øre as kroner for an input field ("1299.50"; "" for none). */
export function krInput(oere: number | null | undefined): string {
  if (oere === null || oere === undefined) return "";
  return oere % 100 === 0 ? String(oere / 100) : (oere / 100).toFixed(2);
}

const STATUS_TONE: Record<string, string> = {
  paid: "tag-ok",
  processing: "tag-info",
  shipped: "tag-info",
  delivered: "tag-ok",
  completed: "tag-ok",
  pending_payment: "tag-warn",
  pending: "tag-warn",
  flagged_review: "tag-bad",
  disputed: "tag-bad",
  cancelled: "",
  refunded: "",
  partial_refund: "tag-warn",
};

export function statusTag(status: string): Html {
  return html`<span class="tag ${STATUS_TONE[status] ?? ""}" data-status="${status}"${ORDER_STATUS_HINTS[status] ? html` title="${ORDER_STATUS_HINTS[status]}"` : ""}>${ORDER_STATUS_LABELS[status] ?? status}</span>`;
}

/**
 * "Refundér til": the original payment, store credit, or a gift card named by its code (topped up); `asked` puts the
 * destination a return was asked with first, as the default. refundDestination (forms.ts) reads it back.
 */
export function refundFields(asked?: string): Html {
  const choices: Array<[string, string]> = [
    ...(asked ? ([["asked", `Som kunden bad om: ${asked}`]] as Array<[string, string]>) : []),
    ["original", "Samme betalingsmiddel som købet"],
    ["store_credit", "Tilgodebevis (nyt gavekort på mail)"],
    ["gift_card", "Et eksisterende gavekort (kode herunder)"],
  ];
  return html`${select({ name: "refundTo", label: "Refundér til", value: asked ? "asked" : "original", choices })}
${field({ name: "refundCard", label: "Gavekortets kode", maxlength: 40, autocomplete: "off", hint: "Kun ved et eksisterende gavekort: beløbet sættes ind på det." })}`;
}

