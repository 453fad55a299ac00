// /admin/marketing: newsletter campaigns (create, edit drafts, schedule or unschedule) and the subscribers, a page
// at a time (marketing.*).
import { NotFound } from "../../../core/errors.ts";
import createCampaign from "../../../tools/marketing/create_campaign.ts";
import listCampaigns from "../../../tools/marketing/list_campaigns.ts";
import listSubscribers from "../../../tools/marketing/list_subscribers.ts";
import scheduleCampaign from "../../../tools/marketing/schedule_campaign.ts";
import updateCampaign from "../../../tools/marketing/update_campaign.ts";
import { AUDIENCES, type Audience } from "../../../tools/marketing/schemas.ts";
import { emptyState, field as input, pagination } from "../../components.ts";
import { html, type Html } from "../../html.ts";
import type { Outcome, View } from "../../page.ts";
import { actionButton, formOpen, pageHead, select, submit, table, textarea } from "../components.ts";
import { localDateTime, optional, toLocalDateTime, when } from "../forms.ts";
import type { AdminRequest } from "../site.ts";

const AUDIENCE_LABELS: Record<Audience, string> = {
  all_subscribers: "Alle tilmeldte",
  customers: "Tilmeldte kunder",
  recent_customers: "Kunder, sidste 90 dage",
};
const AUDIENCE_CHOICES = AUDIENCES.map((value): [string, string] => [value, AUDIENCE_LABELS[value]]);
const STATUS_LABELS = { draft: "Kladde", scheduled: "Planlagt", sent: "Sendt" } as const;
const PAGE_SIZE = 50;

function audienceOf(value: string): Audience {
  return (AUDIENCES as readonly string[]).includes(value) ? (value as Audience) : "all_subscribers";
}

type Campaign = Awaited<ReturnType<typeof listCampaigns.handler>>[number];

function campaignTools(web: AdminRequest, campaign: Campaign): Html {
  if (campaign.status === "sent") return html`<span class="hint">Sendt ${when(campaign.sentAt)} til ${campaign.recipientCount}</span>`;
  const schedule = campaign.status === "scheduled"
    ? actionButton(web, scheduleCampaign, { action: "/admin/marketing/unschedule", label: "Fjern planlægning", fields: { id: campaign.id }, look: "secondary", small: true })
    : html`${formOpen(web, "/admin/marketing/schedule", html` class="compact-form"`)}<input type="hidden" name="id" value="${campaign.id}">
${input({ name: "sendAt", label: "Send", type: "datetime-local", value: toLocalDateTime(campaign.sendAt), required: true })}${submit(web, scheduleCampaign, "Planlæg", "secondary")}</form>`;
  const edit = campaign.status === "draft"
    ? html`<details><summary>Ret kladden</summary>
${formOpen(web, "/admin/marketing/update")}<input type="hidden" name="id" value="${campaign.id}">
${input({ name: "name", label: "Navn", value: campaign.name, required: true, maxlength: 200 })}
${input({ name: "subject", label: "Emne", value: campaign.subject, required: true, maxlength: 200 })}
${select({ name: "audience", label: "Modtagere", value: campaign.audience, choices: AUDIENCE_CHOICES })}
${textarea({ name: "body", label: "Ny tekst", rows: 5, hint: "Tom: den nuværende tekst beholdes." })}
${submit(web, updateCampaign, "Gem kladden")}
</form></details>`
    : "";
  return html`${schedule}${edit}`;
}

export async function marketingPage(web: AdminRequest): Promise<View> {
  const page = Math.min(2000, Math.max(1, Number.parseInt(web.query("page"), 10) || 1));
  const [campaigns, subscribers] = await Promise.all([
    web.call(listCampaigns, { limit: 100 }),
    web.call(listSubscribers, { status: "active", limit: PAGE_SIZE + 1, offset: (page - 1) * PAGE_SIZE }),
  ]);
  const campaignRows = campaigns.map((campaign) => [
    html`<strong>${campaign.name}</strong><br><span class="hint">${campaign.subject}</span>`,
    html`${AUDIENCE_LABELS[campaign.audience]}<br><span class="hint">${campaign.audienceCount} modtagere nu</span>`,
    html`<span class="tag ${campaign.status === "sent" ? "tag-ok" : campaign.status === "scheduled" ? "tag-info" : ""}">${STATUS_LABELS[campaign.status]}</span>${campaign.sendAt && campaign.status === "scheduled" ? html`<br><span class="hint">${when(campaign.sendAt)}</span>` : ""}`,
    campaignTools(web, campaign),
  ]);
  const subscriberRows = subscribers.slice(0, PAGE_SIZE).map((subscriber) => [subscriber.email, subscriber.source, when(subscriber.consentAt)]);
  return {
    title: "Nyhedsbreve",
    main: html`${pageHead("Nyhedsbreve", { lead: "Kampagner sendes kun til tilmeldte, der har givet samtykke." })}
<section class="card"><h2>Kampagner</h2>
${campaignRows.length ? table("Kampagner", ["Kampagne", "Modtagere", "Status", ""], campaignRows) : html`<p class="hint">Ingen kampagner endnu.</p>`}
<details><summary>Ny kampagne</summary>
${formOpen(web, "/admin/marketing/create")}
${input({ name: "name", label: "Navn (internt)", required: true, maxlength: 200 })}
${input({ name: "subject", label: "Emne", required: true, maxlength: 200 })}
${select({ name: "audience", label: "Modtagere", value: "all_subscribers", choices: AUDIENCE_CHOICES })}
${textarea({ name: "body", label: "Tekst", rows: 8, required: true })}
${submit(web, createCampaign, "Opret kladde")}
</form></details>
</section>
<section class="card"><h2>Tilmeldte</h2>
${subscriberRows.length ? table("Tilmeldte", ["E-mail", "Kilde", "Samtykke"], subscriberRows) : emptyState("Ingen tilmeldte", "Kunder kan tilmelde sig i butikken og i chatten.")}
${pagination(page, subscribers.length > PAGE_SIZE, (n) => (n > 1 ? `/admin/marketing?page=${n}` : "/admin/marketing"))}
</section>`,
  };
}

const ACTIONS: Record<string, (web: AdminRequest) => Promise<string>> = {
  async create(web) {
    await web.call(createCampaign, { name: web.field("name"), subject: web.field("subject"), body: web.field("body"), audience: audienceOf(web.field("audience")) });
    return "Kampagnen er oprettet som kladde.";
  },
  async update(web) {
    const body = optional(web.field("body"));
    await web.call(updateCampaign, { id: web.field("id"), patch: { name: web.field("name"), subject: web.field("subject"), audience: audienceOf(web.field("audience")), ...(body ? { body } : {}) } });
    return "Kladden er gemt.";
  },
  async schedule(web) {
    const sendAt = localDateTime(web.field("sendAt"), "sendAt") ?? null;
    await web.call(scheduleCampaign, { id: web.field("id"), sendAt });
    return `Kampagnen sendes ${when(sendAt)}.`;
  },
  async unschedule(web) {
    await web.call(scheduleCampaign, { id: web.field("id"), sendAt: null });
    return "Kampagnen er ikke længere planlagt.";
  },
};

export async function marketingAction(web: AdminRequest, name: string): Promise<Outcome> {
  const action = Object.hasOwn(ACTIONS, name) ? ACTIONS[name] : undefined;
  if (!action) throw new NotFound(`No marketing action ${name}.`);
  return web.act("/admin/marketing", () => action(web));
}
