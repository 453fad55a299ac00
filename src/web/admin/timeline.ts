// An order's history as Danish sentences, built from each event's kind and fields (orders.get_timeline), never from
// its English summary: "Ordren blev oprettet (afventer betaling) af kunden (butikken)", "Status ændret fra Betalt til
// Behandles af medarbejder mette@…", "E-mail sendt til …: ordrebekræftelse".
import type { z } from "zod";
import type getTimeline from "../../tools/orders/get_timeline.ts";
import { html, type Html } from "../html.ts";
import { actionLabel } from "./actions.ts";
import { actorNames, DOOR_TEXT, type ActorName } from "./actors.ts";
import { when } from "./forms.ts";
import { ORDER_STATUS_LABELS } from "./labels.ts";
import type { AdminRequest } from "./site.ts";

type Event = z.output<(typeof getTimeline)["output"]>[number];

const EMAIL_KINDS: Record<string, string> = {
  order_confirmation: "ordrebekræftelse",
  payment_instructions: "betalingsvejledning",
  order_shipped: "besked om afsendelse",
  order_changed: "besked om ændret ordre",
  gift_card: "gavekort",
  return_approved: "retur godkendt",
  return_rejected: "retur afvist",
  refund_issued: "besked om refusion",
  return_exchanged: "besked om ombytning",
  login_code: "login-kode",
};

/** Reasons the shop itself stores in English, in Danish; `null` drops one that only repeats the sentence. */
const MACHINE_REASONS: Array<[RegExp, string | null]> = [
  [/^Order placed$/, null],
  [/^Covered by earlier payments after an item change$/, "dækket af tidligere betalinger efter en vareændring"],
  [/^gift card at checkout$/, "betalt med gavekort ved kassen"],
  [/^audit\.revert of entry /, "fortrudt fra ændringsloggen"],
];

function statusName(status: string | null): string {
  return status ? (ORDER_STATUS_LABELS[status] ?? status) : "—";
}

/** A status change's reason: staff and API keys write theirs (shown as said); the shop's own are translated or shown as a reference. */
function reasonText(reason: string | null, actor: string): Html {
  if (!reason) return html``;
  for (const [pattern, text] of MACHINE_REASONS) if (pattern.test(reason)) return text ? html` – ${text}` : html``;
  if (actor.startsWith("staff:") || actor.startsWith("key:") || /^(Retur|Ombytning) /.test(reason)) return html`. Årsag: ${reason}`;
  return html` <span class="hint">(reference <code>${reason}</code>)</span>`;
}

function sentence(event: Event, name: ActorName, doors: Map<string, string>): Html {
  switch (event.kind) {
    case "status": {
      const who = name(event.actor, doors.get(event.actor));
      if (!event.fromStatus) return html`Ordren blev oprettet (${statusName(event.toStatus).toLowerCase()}) af ${who}${reasonText(event.reason, event.actor)}`;
      return html`Status ændret fra <strong>${statusName(event.fromStatus)}</strong> til <strong>${statusName(event.toStatus)}</strong> af ${who}${reasonText(event.reason, event.actor)}`;
    }
    case "note":
      return html`Intern note fra ${name(event.actor)}<blockquote>${event.body}</blockquote>`;
    case "email":
      return html`E-mail sendt til ${event.to}: ${EMAIL_KINDS[event.emailKind] ?? event.subject}`;
    case "audit": {
      const label = actionLabel(event.tool);
      const who = name(event.actor, event.door);
      const via = event.actor.startsWith("session:") ? "" : ` via ${DOOR_TEXT[event.door] ?? event.door}`;
      return html`${label === event.tool ? html`<code>${label}</code>` : label} – ${who}${via} <a class="hint" href="/admin/audit/${event.auditId}">detaljer</a>`;
    }
  }
}

/** The timeline as a list of Danish sentences, oldest first. */
export async function timelineList(web: AdminRequest, events: Event[]): Promise<Html> {
  if (!events.length) return html`<p class="hint">Ingen hændelser endnu.</p>`;
  const name = await actorNames(web, events.map((event) => ("actor" in event ? event.actor : null)));
  const doors = new Map(events.flatMap((event) => (event.kind === "audit" ? [[event.actor, event.door] as const] : [])));
  return html`<ol class="timeline">${events.map((event) => html`<li data-kind="${event.kind}"><time datetime="${event.at}">${when(event.at)}</time> ${sentence(event, name, doors)}</li>`)}</ol>`;
}
