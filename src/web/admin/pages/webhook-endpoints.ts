// /admin/webhooks: the integrators' webhook endpoints (create with the secret shown once, test, enable, delete) and
// each endpoint's delivery log with resend (webhooks.* tools: they check the receiver address and audit every change).
import type { z } from "zod";
import { NotFound } from "../../../core/errors.ts";
import createWebhook from "../../../tools/webhooks/create.ts";
import deleteWebhook from "../../../tools/webhooks/delete.ts";
import listDeliveries from "../../../tools/webhooks/deliveries.ts";
import enableWebhook from "../../../tools/webhooks/enable.ts";
import listWebhooks from "../../../tools/webhooks/list.ts";
import resendDelivery from "../../../tools/webhooks/resend.ts";
import { EVENT_TYPES, type EventType } from "../../../tools/webhooks/schemas.ts";
import testWebhook from "../../../tools/webhooks/test.ts";
import { breadcrumbs, emptyState, field as input } from "../../components.ts";
import { html, type HtmlValue } from "../../html.ts";
import type { Outcome, View } from "../../page.ts";
import { actionButton, checkbox, formOpen, pageHead, submit, table } from "../components.ts";
import { when } from "../forms.ts";
import type { AdminRequest } from "../site.ts";

const EVENT_TEXT: Record<EventType, string> = {
  "order.created": "En ordre er lagt",
  "order.paid": "En ordre er betalt",
  "order.shipped": "En ordre er afsendt",
  "order.cancelled": "En ordre er annulleret",
  "order.refunded": "En ordre er refunderet (helt eller delvist)",
  "order.updated": "En ordres varer er ændret før afsendelse",
  "return.requested": "En kunde beder om en returnering",
  "product.updated": "Et produkt er ændret (pris, lager, tekster)",
  "stock.low": "Lageret af et produkt eller en variant er faldet til 5 eller derunder",
};

const DELIVERY_STATUS: Record<string, string> = { pending: "venter", delivered: "leveret", dead: "opgivet", cancelled: "annulleret" };

/** Why the shop switched an endpoint off, in Danish (the tools keep their English reason for the API). */
function disabledText(reason: string | null): string {
  const streak = /^(\d+) events in a row were not delivered/.exec(reason ?? "");
  if (streak) return `${streak[1]} hændelser i træk kunne ikke leveres, heller ikke efter alle genforsøg.`;
  return reason ? "Slået fra efter fejlede leveringer." : "";
}

type Endpoint = z.output<typeof listWebhooks.output>[number];
type Delivery = z.output<typeof listDeliveries.output>[number];

const checkId = (id: string) => {
  if (!/^[\w-]{1,100}$/.test(id)) throw new NotFound(`No webhook "${id}".`);
};

function endpointRow(web: AdminRequest, endpoint: Endpoint): HtmlValue[] {
  const base = `/admin/webhooks/${endpoint.id}`;
  const state = endpoint.enabled
    ? html`<span class="tag">aktiv</span>${endpoint.failureStreak ? html` <span class="hint">${endpoint.failureStreak} fejlede i træk</span>` : ""}`
    : html`<span class="tag tag-warn">slået fra</span><br><span class="hint">${disabledText(endpoint.disabledReason)}</span>`;
  return [
    html`<a href="${base}"><code>${endpoint.url}</code></a>`,
    html`${endpoint.events.map((event) => html`<span class="tag">${event}</span> `)}`,
    state,
    when(endpoint.createdAt),
    html`${actionButton(web, testWebhook, { action: `${base}/test`, label: "Send test", look: "secondary", small: true })}
${endpoint.enabled ? "" : actionButton(web, enableWebhook, { action: `${base}/enable`, label: "Slå til", small: true })}
${actionButton(web, deleteWebhook, { action: `${base}/delete`, label: "Slet", look: "danger", small: true, confirm: `Slet webhooken til ${endpoint.url}? Den får ingen flere hændelser.` })}`,
  ];
}

export async function webhooksPage(web: AdminRequest): Promise<View> {
  const endpoints = await web.call(listWebhooks, {});
  return {
    title: "Webhooks",
    main: html`${pageHead("Webhooks", { lead: html`Butikken sender signerede hændelser (Standard Webhooks) til integrationer, fx et ERP- eller lagersystem. Modtageren tjekker signaturen med et Standard Webhooks-bibliotek og den hemmelighed, der vises, når webhooken oprettes. Hændelsernes indhold står i <a href="/docs">udviklerdokumentationen</a>.` })}
${endpoints.length ? table("Webhooks", ["Modtager", "Hændelser", "Tilstand", "Oprettet", ""], endpoints.map((endpoint) => endpointRow(web, endpoint))) : emptyState("Ingen webhooks", "Opret den første herunder.")}
<section class="card"><h2>Ny webhook</h2>
${formOpen(web, "/admin/webhooks")}
${input({ name: "url", label: "Modtagerens URL", required: true, maxlength: 2000, placeholder: "https://erp.example.dk/hooks/shop", hint: "En offentlig http(s)-adresse; adresser på det lokale netværk afvises." })}
<fieldset class="scopes"><legend>Hændelser</legend>
<div class="scope-grid">${EVENT_TYPES.map((event) => checkbox({ name: "events", value: event, label: event, hint: EVENT_TEXT[event] }))}</div>
</fieldset>
${submit(web, createWebhook, "Opret webhook")}
</form></section>`,
  };
}

/** The secret is shown in this response only (never redirected through a cookie). */
export async function createWebhookAction(web: AdminRequest): Promise<Outcome> {
  const body = web.req.body as Record<string, unknown>;
  const events = ([] as unknown[]).concat(body.events ?? []).filter((event): event is EventType => typeof event === "string" && (EVENT_TYPES as readonly string[]).includes(event));
  if (!events.length) return web.done("/admin/webhooks", "Vælg mindst én hændelse.", "error");
  let created: z.output<typeof createWebhook.output>;
  try {
    created = await web.call(createWebhook, { url: web.field("url"), events });
  } catch (error) {
    return web.refused("/admin/webhooks", error);
  }
  return {
    status: 201,
    title: "Ny webhook",
    main: html`${breadcrumbs([{ label: "Webhooks", href: "/admin/webhooks" }, { label: created.endpoint.url }])}
${pageHead("Webhooken er oprettet")}
<section class="card key-reveal">
<div class="notice notice-info" role="status">Kopiér hemmeligheden nu og giv den til modtageren. Den vises kun denne ene gang.</div>
<div class="copy-field">
<input id="new-secret" class="mono" type="text" readonly value="${created.secret}" aria-label="Webhookens hemmelighed" data-select-on-focus>
<button type="button" class="button" data-copy="#new-secret" hidden>Kopiér</button>
</div>
<p>Hændelser: ${created.endpoint.events.map((event) => html`<span class="tag">${event}</span> `)}</p>
<p class="hint">Modtageren tjekker headerne <code>webhook-id</code>, <code>webhook-timestamp</code> og <code>webhook-signature</code> med et Standard Webhooks-bibliotek og denne hemmelighed.</p>
<p><a class="button button-secondary" href="/admin/webhooks/${created.id}">Til leveringsloggen</a></p>
</section>`,
  };
}

function deliveryRow(web: AdminRequest, endpointId: string, delivery: Delivery): HtmlValue[] {
  const last = delivery.tries.at(-1);
  const answer = last ? (last.statusCode !== null ? `HTTP ${last.statusCode}` : (last.error ?? "")) : "";
  return [
    html`<strong>${delivery.type}</strong><br><code class="hint">${delivery.id}</code>`,
    html`<span class="tag${delivery.status === "dead" ? " tag-warn" : ""}">${DELIVERY_STATUS[delivery.status] ?? delivery.status}</span>`,
    html`${delivery.attempts} af ${delivery.maxAttempts}${delivery.nextAttemptAt ? html`<br><span class="hint">næste ${when(delivery.nextAttemptAt)}</span>` : ""}`,
    html`${answer}${delivery.tries.length ? html`<details><summary>Forsøg</summary><ol>${delivery.tries.map((attempt) => html`<li>${when(attempt.startedAt)} · ${attempt.durationMs} ms · ${attempt.statusCode ?? attempt.error ?? ""}</li>`)}</ol></details>` : ""}`,
    when(delivery.createdAt),
    delivery.status === "pending" ? "" : actionButton(web, resendDelivery, { action: `/admin/webhooks/${endpointId}/deliveries/${delivery.id}/resend`, label: "Send igen", look: "secondary", small: true }),
  ];
}

export async function webhookPage(web: AdminRequest, id: string): Promise<View> {
  checkId(id);
  const endpoint = (await web.call(listWebhooks, {})).find((entry) => entry.id === id);
  if (!endpoint) throw new NotFound(`No webhook "${id}".`);
  const deliveries = await web.call(listDeliveries, { id, limit: 50 });
  return {
    title: `Webhook ${endpoint.url}`,
    main: html`${breadcrumbs([{ label: "Webhooks", href: "/admin/webhooks" }, { label: endpoint.url }])}
${pageHead("Leveringslog", { lead: html`<code>${endpoint.url}</code>${endpoint.enabled ? "" : html` · <span class="tag tag-warn">slået fra</span> ${disabledText(endpoint.disabledReason)}`}`, actions: actionButton(web, testWebhook, { action: `/admin/webhooks/${id}/test`, label: "Send testhændelse", look: "secondary" }) })}
${deliveries.length ? table("Leveringer", ["Hændelse", "Status", "Forsøg", "Sidste svar", "Oprettet", ""], deliveries.map((delivery) => deliveryRow(web, id, delivery))) : emptyState("Ingen leveringer endnu", "Send en testhændelse for at prøve modtageren.")}`,
  };
}

/** Test, enable and delete an endpoint; resend one of its deliveries. */
export async function webhookAction(web: AdminRequest, id: string, action: string, deliveryId?: string): Promise<Outcome> {
  checkId(id);
  const back = `/admin/webhooks/${id}`;
  switch (action) {
    case "test":
      return web.act(back, async () => {
        await web.call(testWebhook, { id });
        return "Testhændelsen er sendt afsted; se den i loggen om et øjeblik.";
      });
    case "enable":
      return web.act("/admin/webhooks", async () => {
        await web.call(enableWebhook, { id });
        return "Webhooken er slået til igen.";
      });
    case "delete":
      return web.act("/admin/webhooks", async () => {
        await web.call(deleteWebhook, { id });
        return "Webhooken er slettet.";
      }, "/admin/webhooks");
    case "resend":
      if (!deliveryId) break;
      checkId(deliveryId);
      return web.act(back, async () => {
        await web.call(resendDelivery, { deliveryId });
        return "Leveringen sendes igen.";
      });
  }
  throw new NotFound(`No webhook action "${action}".`);
}
