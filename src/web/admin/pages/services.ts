// /admin/services: the service offerings shown under /services (drafts included), a form for a new one, and per
// offering its texts, price text, status, navigation order and delete (services.*).
import { NotFound } from "../../../core/errors.ts";
import servicesCreate from "../../../tools/services/create.ts";
import servicesDelete from "../../../tools/services/delete.ts";
import servicesGet from "../../../tools/services/get.ts";
import servicesList from "../../../tools/services/list.ts";
import servicesUpdate from "../../../tools/services/update.ts";
import { breadcrumbs, emptyState, field as input } from "../../components.ts";
import { html } from "../../html.ts";
import type { Outcome, View } from "../../page.ts";
import { actionButton, checkbox, formOpen, pageHead, select, submit, table, textarea } from "../components.ts";
import { integer, optional, when } from "../forms.ts";
import type { AdminRequest } from "../site.ts";

const SLUG = /^[a-z0-9-]{2,200}$/;
const STATUS: Array<[string, string]> = [["published", "Udgivet"], ["draft", "Kladde"]];

export async function servicesPage(web: AdminRequest): Promise<View> {
  const services = await web.call(servicesList, { limit: 100 });
  const rows = services.map((service) => [
    html`<a href="/admin/services/${service.slug}">${service.title}</a><br><span class="hint">${service.shortDescription ?? ""}</span>`,
    service.priceString ?? "—",
    service.status === "published" ? html`<span class="tag tag-ok">Udgivet</span>` : html`<span class="tag">Kladde</span>`,
    service.navOrder,
    when(service.updatedAt),
  ]);
  return {
    title: "Ydelser",
    main: html`${pageHead("Ydelser", { lead: "Synsprøver, tilpasninger og andre ydelser på /services." })}
${rows.length ? table("Ydelser", ["Ydelse", "Pris", "Status", "Rækkefølge", "Ændret"], rows, [3]) : emptyState("Ingen ydelser", "Opret den første herunder.")}
<section class="card narrow"><h2>Ny ydelse</h2>
${formOpen(web, "/admin/services/create")}
${input({ name: "title", label: "Titel", required: true, maxlength: 200 })}
${input({ name: "slug", label: "Adresse (slug)", pattern: "[a-z0-9\\-]{2,}", hint: "Tom: laves ud fra titlen." })}
${input({ name: "shortDescription", label: "Kort beskrivelse", maxlength: 500 })}
${input({ name: "priceString", label: "Pris (tekst)", maxlength: 100, placeholder: "Fra 395 kr." })}
${textarea({ name: "body", label: "Tekst", rows: 6, required: true })}
${textarea({ name: "features", label: "Det får kunden", rows: 3, hint: "Ét punkt pr. linje." })}
${input({ name: "heroImage", label: "Billede (adresse)", type: "url", placeholder: "https://…" })}
${select({ name: "status", label: "Status", value: "draft", choices: STATUS })}
${submit(web, servicesCreate, "Opret ydelse")}
</form></section>`,
  };
}

export async function servicePage(web: AdminRequest, slug: string): Promise<View> {
  if (!SLUG.test(slug)) throw new NotFound(`No service "${slug}".`);
  const service = await web.call(servicesGet, { slug });
  return {
    title: service.title,
    main: html`${breadcrumbs([{ label: "Ydelser", href: "/admin/services" }, { label: service.title }])}
${pageHead(service.title, { lead: html`<a href="/services/${service.slug}">/services/${service.slug}</a> · ændret ${when(service.updatedAt)}` })}
<section class="card narrow">
${formOpen(web, "/admin/services/update")}
<input type="hidden" name="slug" value="${service.slug}">
${input({ name: "title", label: "Titel", value: service.title, required: true, maxlength: 200 })}
${input({ name: "shortDescription", label: "Kort beskrivelse", value: service.shortDescription ?? "", maxlength: 500 })}
${input({ name: "priceString", label: "Pris (tekst)", value: service.priceString ?? "", maxlength: 100 })}
${textarea({ name: "body", label: "Tekst", value: service.body, rows: 10, required: true })}
<div class="form-pair">
${select({ name: "status", label: "Status", value: service.status, choices: STATUS })}
${input({ name: "navOrder", label: "Rækkefølge", type: "number", value: service.navOrder, hint: "Lavest vises først." })}
</div>
${checkbox({ name: "showInNav", label: "Vis i menuen", checked: service.showInNav })}
${service.features.length ? html`<p class="hint">Punkter: ${service.features.join(" · ")} (sættes ved oprettelse)</p>` : ""}
${submit(web, servicesUpdate, "Gem ydelse")}
</form></section>
<section class="card narrow danger-zone"><h2>Slet ydelse</h2>
${actionButton(web, servicesDelete, { action: "/admin/services/delete", label: "Slet ydelsen", fields: { slug: service.slug }, look: "danger", confirm: `Slet ${service.title}?` })}
</section>`,
  };
}

export async function serviceAction(web: AdminRequest, name: string): Promise<Outcome> {
  const slug = web.field("slug").trim();
  const status = web.field("status") === "draft" ? "draft" : "published";
  if (name === "create") {
    return web.act("/admin/services", async () => {
      const features = web.field("features").split(/\r?\n/).map((line) => line.trim()).filter(Boolean);
      const created = await web.call(servicesCreate, {
        title: web.field("title").trim(),
        body: web.field("body"),
        slug: optional(slug),
        shortDescription: optional(web.field("shortDescription")),
        priceString: optional(web.field("priceString")),
        heroImage: optional(web.field("heroImage")),
        ...(features.length ? { features } : {}),
        status,
      });
      return `Ydelsen er oprettet på ${created.publicUrl}${created.status === "draft" ? " (kladde)" : ""}.`;
    });
  }
  if (!SLUG.test(slug)) throw new NotFound(`No service "${slug}".`);
  if (name === "update") {
    return web.act(`/admin/services/${slug}`, async () => {
      await web.call(servicesUpdate, {
        slug,
        patch: {
          title: web.field("title").trim(),
          body: web.field("body"),
          shortDescription: optional(web.field("shortDescription")),
          priceString: optional(web.field("priceString")),
          status,
          showInNav: web.field("showInNav") === "on",
          navOrder: integer(web.field("navOrder"), "navOrder") ?? 0,
        },
      });
      return "Ydelsen er gemt.";
    });
  }
  if (name === "delete") {
    try {
      await web.call(servicesDelete, { slug, confirm: true });
    } catch (error) {
      return web.refused(`/admin/services/${slug}`, error);
    }
    return web.done("/admin/services", "Ydelsen er slettet.");
  }
  throw new NotFound(`No service action ${name}.`);
}
