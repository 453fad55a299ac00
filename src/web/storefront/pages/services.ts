// GET /services and /services/<slug>: the published service offerings (drafts are 404), read as the public reader.
import { NotFound } from "../../../core/errors.ts";
import servicesGet from "../../../tools/services/get.ts";
import servicesList from "../../../tools/services/list.ts";
import { breadcrumbs, emptyState } from "../../components.ts";
import { bodyHtml, html } from "../../html.ts";
import type { View } from "../../page.ts";
import type { StorefrontRequest } from "../site.ts";

const SLUG = /^[a-z0-9-]{1,200}$/;

export async function servicesPage(web: StorefrontRequest): Promise<View> {
  const services = await web.read(servicesList, { status: "published" });
  const list = services.length
    ? html`<ul class="card-list service-list">${services.map((service) => html`<li class="card service-card">
<h2><a href="/services/${service.slug}">${service.title}</a></h2>
${service.shortDescription ? html`<p>${service.shortDescription}</p>` : ""}
${service.priceString ? html`<p class="price">${service.priceString}</p>` : ""}
</li>`)}</ul>`
    : emptyState("Ingen ydelser lige nu", "Kig forbi igen senere.", { label: "Se sortimentet", href: "/search" });
  return {
    title: "Ydelser",
    description: "Synsprøver, tilpasning og service hos os.",
    canonical: "/services",
    main: html`${breadcrumbs([{ label: "Forside", href: "/" }, { label: "Ydelser" }])}
<h1>Ydelser</h1>
${list}`,
  };
}

export async function servicePage(web: StorefrontRequest, slug: string): Promise<View> {
  if (!SLUG.test(slug)) throw new NotFound(`No service "${slug}".`);
  const service = await web.read(servicesGet, { slug });
  if (service.status !== "published") throw new NotFound(`No published service "${slug}".`);
  return {
    title: service.title,
    description: service.shortDescription ?? undefined,
    canonical: `/services/${service.slug}`,
    main: html`${breadcrumbs([{ label: "Forside", href: "/" }, { label: "Ydelser", href: "/services" }, { label: service.title }])}
<article class="prose service">
<h1>${service.title}</h1>
${service.heroImage ? html`<img class="service-hero" src="${service.heroImage}" alt="">` : ""}
${service.shortDescription ? html`<p class="lead">${service.shortDescription}</p>` : ""}
${service.priceString ? html`<p class="price">Pris: ${service.priceString}</p>` : ""}
${bodyHtml(service.body)}
${service.features.length ? html`<h2>Det får du</h2>\n<ul class="checklist">${service.features.map((feature) => html`<li>${feature}</li>`)}</ul>` : ""}
<p><a href="/services">← Alle ydelser</a></p>
</article>`,
  };
}
