// checkout.get: the caller's checkout session, re-priced from the catalogue while it is still open.
import { z } from "zod";
import { defineTool, READ } from "../tool.ts";
import { checkoutId, FINAL_STATUSES, sessionView } from "./schemas.ts";
import { loadSession, priceSession, stateOf, storedView } from "./sessions.ts";

export default defineTool({
  name: "checkout.get",
  description: "One of your checkout sessions, re-priced while open. Returns the session.",
  errors: [{ status: 404, when: "unknown, or another's session" }],
  input: z.strictObject({ id: checkoutId }),
  output: sessionView,
  scope: "checkout:agent",
  anonymous: true,
  audited: false,
  annotations: READ,
  examples: [{ id: "chk_00000000000000000000000000000000" }],
  async handler({ id }, ctx) {
    const row = await loadSession(ctx, id);
    const view = storedView(row, ctx.now());
    return FINAL_STATUSES.has(view.status) ? view : priceSession(ctx, stateOf(row));
  },
});
