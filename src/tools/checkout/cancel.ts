// checkout.cancel: end an open checkout session without an order, keeping the agent's reason when it gives one.
import { z } from "zod";
import { defineTool, DESTRUCTIVE } from "../tool.ts";
import { checkoutId, intentTrace, sessionView } from "./schemas.ts";
import { assertModifiable, columns, loadSession, priceSession, stateOf } from "./sessions.ts";

export default defineTool({
  name: "checkout.cancel",
  description: "Cancel one of your open checkout sessions. Returns the session.",
  errors: [{ status: 422, code: "checkout_not_modifiable", when: "completed, canceled or expired" }],
  input: z.strictObject({ id: checkoutId, intentTrace: intentTrace.optional().describe("Why the buyer left, if known.") }),
  output: sessionView,
  scope: "checkout:agent",
  anonymous: true,
  audited: true,
  annotations: DESTRUCTIVE,
  examples: [{ id: "chk_00000000000000000000000000000000" }, { id: "chk_00000000000000000000000000000000", intentTrace: { reasonCode: "shipping_cost" } }],
  async handler({ id, intentTrace: trace }, ctx) {
    const row = await loadSession(ctx, id, true);
    assertModifiable(ctx, row);
    const now = ctx.now();
    const state = { ...stateOf(row), status: "canceled" as const, updatedAt: now };
    const view = await priceSession(ctx, state);
    await ctx.db.checkoutSession.update({ where: { id }, data: { ...columns(state, view), ...(trace ? { intentTrace: trace } : {}), canceledAt: now, updatedAt: now } });
    await ctx.audit({ subjectType: "checkout_session", subjectId: id, before: row.view, after: view });
    return view;
  },
});
