// /admin/discounts: the codes with usage and state, a form for a new code, and per code on/off, value, expiry,
// usage limit and delete (discounts.*).
import type { z } from "zod";
import { NotFound } from "../../../core/errors.ts";
import createDiscount from "../../../tools/discounts/create.ts";
import deleteDiscount from "../../../tools/discounts/delete.ts";
import discountsGet from "../../../tools/discounts/get.ts";
import discountsList from "../../../tools/discounts/list.ts";
import discountsListStatus from "../../../tools/discounts/list_status.ts";
import toggleDiscount from "../../../tools/discounts/toggle.ts";
import updateDiscount from "../../../tools/discounts/update.ts";
import { emptyState, field as input } from "../../components.ts";
import { html, type Html } from "../../html.ts";
import type { Outcome, View } from "../../page.ts";
import { actionButton, formOpen, money, krInput, pageHead, select, submit, table, unit } from "../components.ts";
import { integer, kroner, localDateTime, toLocalDateTime, when } from "../forms.ts";
import type { AdminRequest } from "../site.ts";

type Discount = z.output<typeof discountsList.output>[number];
type Status = z.output<typeof discountsListStatus.output>[number]["status"];

function valueText(discount: Pick<Discount, "type" | "value">, currency: string): string {
  return discount.type === "percent" ? `${discount.value} %` : money(discount.value, currency);
}

/** Whether a code works right now, or why not (discounts.list_status). */
const STATE: Record<Status, Html> = {
  active: html`<span class="tag tag-ok">Aktiv</span>`,
  inactive: html`<span class="tag">Slået fra</span>`,
  expired: html`<span class="tag tag-warn">Udløbet</span>`,
  used_up: html`<span class="tag tag-warn">Opbrugt</span>`,
  unknown: html`<span class="tag">Slettet</span>`,
};

function editForm(web: AdminRequest, discount: Discount, currency: string): Html {
  return html`<section class="card narrow" id="edit"><h2>Ret <code class="code">${discount.code}</code></h2>
<p class="hint">Kode og type kan ikke ændres (${discount.type === "percent" ? "procent" : "fast beløb"}).</p>
${formOpen(web, "/admin/discounts/update")}
<input type="hidden" name="code" value="${discount.code}">
${input({ name: "value", label: discount.type === "percent" ? "Rabat i procent" : `Rabat i ${unit(currency)}`, value: discount.type === "percent" ? String(discount.value) : krInput(discount.value), required: true, inputmode: "decimal" })}
<div class="form-pair">
${input({ name: "validUntil", label: "Gyldig til", type: "datetime-local", value: toLocalDateTime(discount.validUntil), hint: "Tom: udløber ikke." })}
${input({ name: "usageLimit", label: "Maks. antal brug", type: "number", min: 1, value: discount.usageLimit ?? "", hint: "Tom: ubegrænset." })}
</div>
<div class="button-row">${submit(web, updateDiscount, "Gem")} <a class="button button-secondary" href="/admin/discounts">Annullér</a></div>
</form>
<hr>
${actionButton(web, deleteDiscount, { action: "/admin/discounts/delete", label: "Slet koden", fields: { code: discount.code }, look: "danger", small: true, confirm: `Slet rabatkoden ${discount.code}?` })}
</section>`;
}

export async function discountsPage(web: AdminRequest): Promise<View> {
  const [discounts, currency] = await Promise.all([web.call(discountsList, { limit: 100 }), web.currency()]);
  const statuses = discounts.length ? await web.call(discountsListStatus, { codes: discounts.map((discount) => discount.code) }) : [];
  const statusOf = new Map(statuses.map((entry) => [entry.code, entry.status]));
  const editing = discounts.find((discount) => discount.code === web.query("edit"));
  const rows = discounts.map((discount) => [
    html`<code class="code">${discount.code}</code>`,
    valueText(discount, currency),
    html`${discount.usageCount}${discount.usageLimit ? ` / ${discount.usageLimit}` : ""}`,
    when(discount.validUntil),
    html`<span class="toggle-state">${STATE[statusOf.get(discount.code) ?? "unknown"]}${actionButton(web, toggleDiscount, {
      action: "/admin/discounts/toggle",
      label: discount.active ? "Slå fra" : "Slå til",
      fields: { code: discount.code, active: discount.active ? "false" : "true" },
      look: "secondary",
      small: true,
    })}</span>`,
    html`<a href="/admin/discounts?edit=${encodeURIComponent(discount.code)}#edit">Ret</a>`,
  ]);
  return {
    title: "Rabatkoder",
    main: html`${pageHead("Rabatkoder", { lead: "Koder kunderne kan skrive i kurven. Ordrer beholder koden, selv om den slettes." })}
${rows.length ? table("Rabatkoder", ["Kode", "Rabat", "Brugt", "Udløber", "Status", ""], rows) : emptyState("Ingen rabatkoder", "Opret den første herunder.")}
${editing ? editForm(web, editing, currency) : ""}
<section class="card narrow"><h2>Ny rabatkode</h2>
${formOpen(web, "/admin/discounts/create")}
${input({ name: "code", label: "Kode", required: true, pattern: "[A-Za-z0-9_\\-]{3,64}", hint: "3–64 tegn: bogstaver, tal, - og _. Gemmes med store bogstaver." })}
<div class="form-pair">
${select({ name: "type", label: "Type", value: "percent", choices: [["percent", "Procent"], ["fixed", "Fast beløb"]] })}
${input({ name: "value", label: "Værdi", required: true, inputmode: "decimal", hint: "Procent (1–100) eller kroner." })}
</div>
<div class="form-pair">
${input({ name: "validUntil", label: "Gyldig til", type: "datetime-local" })}
${input({ name: "usageLimit", label: "Maks. antal brug", type: "number", min: 1 })}
</div>
${submit(web, createDiscount, "Opret rabatkode")}
</form></section>`,
  };
}

/** The value field: whole percent, or kroner for a fixed amount. */
function discountValue(web: AdminRequest, type: string): number | undefined {
  return type === "percent" ? integer(web.field("value"), "value") : kroner(web.field("value"), "value");
}

const ACTIONS: Record<string, (web: AdminRequest) => Promise<string>> = {
  async create(web) {
    const type = web.field("type") === "fixed" ? "fixed" : "percent";
    const created = await web.call(createDiscount, {
      code: web.field("code").trim(),
      type,
      value: discountValue(web, type) ?? 0,
      validUntil: localDateTime(web.field("validUntil"), "validUntil"),
      usageLimit: integer(web.field("usageLimit"), "usageLimit"),
    });
    return `Rabatkoden ${created.code} er oprettet.`;
  },
  async toggle(web) {
    const result = await web.call(toggleDiscount, { code: web.field("code"), active: web.field("active") === "true" });
    return `${result.code} er nu ${result.active ? "aktiv" : "slået fra"}.`;
  },
  async update(web) {
    const code = web.field("code");
    const current = await web.call(discountsGet, { code });
    await web.call(updateDiscount, {
      code,
      patch: {
        value: discountValue(web, current.type) ?? 0,
        validUntil: localDateTime(web.field("validUntil"), "validUntil") ?? null,
        usageLimit: integer(web.field("usageLimit"), "usageLimit") ?? null,
      },
    });
    return `${code} er gemt.`;
  },
  async delete(web) {
    await web.call(deleteDiscount, { code: web.field("code"), confirm: true });
    return `${web.field("code")} er slettet.`;
  },
};

export async function discountAction(web: AdminRequest, name: string): Promise<Outcome> {
  const action = Object.hasOwn(ACTIONS, name) ? ACTIONS[name] : undefined;
  if (!action) throw new NotFound(`No discount action ${name}.`);
  const failed = name === "update" ? `/admin/discounts?edit=${encodeURIComponent(web.field("code"))}#edit` : "/admin/discounts";
  return web.act("/admin/discounts", () => action(web), failed);
}
