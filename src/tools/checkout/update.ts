// checkout.update: replace the lines, buyer, destination, shipping option or discount codes of an open checkout session.
import { z } from "zod";
import { toJson } from "../../core/json.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import { defineTool, UPDATE } from "../tool.ts";
import { withDestination } from "./destinations.ts";
import { buyer, checkoutId, consentRecord, destination, destinationId, discountCodes, lineInput, pickupInput, sessionView } from "./schemas.ts";
import { assertModifiable, columns, loadSession, priceSession, resolveLines, stateOf } from "./sessions.ts";

export default defineTool({
  name: "checkout.update",
  description:
    "Change an open checkout session: given fields replace the session's (null clears destination or option). Returns " +
    "the re-priced session.",
  errors: [{ status: 422, code: "checkout_not_modifiable", when: "completed, canceled or expired" }],
  input: z.strictObject({
    id: checkoutId,
    lines: z.array(lineInput).min(1).max(50).optional().describe("All lines (a line keeps its id while its item stays)."),
    buyer: buyer.optional().describe("Who buys."),
    destination: destination.nullable().optional().describe("Where to ship."),
    destinationId: destinationId.optional(),
    fulfillmentOptionId: z.string().min(1).max(100).nullable().optional().describe("Id from fulfillment.options."),
    discountCodes: discountCodes.optional(),
    ...pickupInput,
    consentRecord: consentRecord.optional().describe("Set by protocol doors."),
  }),
  output: sessionView,
  scope: "checkout:agent",
  anonymous: true,
  audited: true,
  annotations: UPDATE,
  examples: [{ id: "chk_00000000000000000000000000000000", buyer: { email: "kunde@example.dk" } }],
  async handler(input, ctx) {
    const row = await loadSession(ctx, input.id, true);
    assertModifiable(ctx, row);
    const state = stateOf(row);
    const before = row.view;
    if (input.lines) state.lines = await resolveLines(ctx.db, input.lines, state.lines);
    if (input.buyer) state.buyer = input.buyer;
    state.fulfillment = await withDestination(ctx, state.buyer, state.fulfillment, input);
    if (input.fulfillmentOptionId !== undefined) state.fulfillment.selectedOptionId = input.fulfillmentOptionId;
    if (input.offerPickup !== undefined) state.fulfillment.pickup = input.offerPickup;
    if (input.pickupPointId !== undefined) state.fulfillment.pickupPointId = input.pickupPointId;
    if (input.discountCodes) state.discountCodes = input.discountCodes;
    state.updatedAt = ctx.now();
    const view = await priceSession(ctx, state);
    await ctx.db.checkoutSession.update({ where: { id: row.id }, data: { ...columns(state, view), ...consentColumn(input), updatedAt: state.updatedAt } });
    await ctx.audit({ subjectType: "checkout_session", subjectId: row.id, before, after: view });
    return view;
  },
});

/** The consent as given: a new buyer replaces the old one, consent included (none given: none kept). */
function consentColumn(input: { buyer?: unknown; consentRecord?: unknown }) {
  if (input.consentRecord) return { consent: toJson(input.consentRecord) as Prisma.InputJsonValue };
  return input.buyer ? { consent: Prisma.DbNull } : {};
}
