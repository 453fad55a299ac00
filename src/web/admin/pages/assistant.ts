// GET /admin/assistant: the slot of the admin assistant. Its chat UI (socket.io namespace /admin, approval cards)
// is built on top of this page: it mounts in #admin-assistant and lists its script in ASSISTANT_SCRIPTS.
import { html } from "../../html.ts";
import type { View } from "../../page.ts";
import { pageHead } from "../components.ts";
import type { AdminRequest } from "../site.ts";

/** Client scripts of the assistant page (asset names), filled in when the chat UI lands. */
export const ASSISTANT_SCRIPTS: string[] = [];

export async function assistantPage(web: AdminRequest): Promise<View> {
  const scopes = [...web.staff.caller.scopes].sort().join(", ");
  return {
    title: "Assistent",
    scripts: ASSISTANT_SCRIPTS,
    main: html`${pageHead("Assistent", { lead: "Styr butikken ved at skrive: assistenten bruger de samme værktøjer som resten af admin, med dine adgange, og beder om godkendelse før hver ændring." })}
<section class="card assistant-slot" id="admin-assistant" data-namespace="/admin" data-scopes="${scopes}">
<p class="hint">Assistenten er ikke tilgængelig endnu.</p>
</section>`,
  };
}
