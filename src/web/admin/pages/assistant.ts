// GET /admin/assistant: the admin assistant. Its chat UI (src/web/client/admin-assistant.ts: socket.io namespace /admin,
// approval cards) mounts in #admin-assistant; without JavaScript the page says that it needs it.
import { html } from "../../html.ts";
import type { View } from "../../page.ts";
import { pageHead } from "../components.ts";
import type { AdminRequest } from "../site.ts";

/** Client scripts of the assistant page (asset names, declared in src/web/asset-entries.ts). */
const ASSISTANT_SCRIPTS: string[] = ["admin-assistant.js"];

export async function assistantPage(web: AdminRequest): Promise<View> {
  const [scopes, currency] = [[...web.staff.caller.scopes].sort().join(", "), await web.currency()];
  return {
    title: "AI-assistent",
    scripts: ASSISTANT_SCRIPTS,
    main: html`${pageHead("AI-assistent", { lead: "Styr butikken ved at skrive til en AI: assistenten bruger de samme værktøjer som resten af admin, med dine adgange, og beder om godkendelse før hver ændring." })}
<section class="card assistant-slot" id="admin-assistant" data-namespace="/admin" data-scopes="${scopes}" data-currency="${currency}">
<p class="hint">Assistenten indlæses … Den kræver JavaScript.</p>
</section>`,
  };
}
