// checkout.agreement (internal): what the buyer agreed to through a checkout session — the consent per purpose as the agent
// gave it, and the shop's policies as they stood when the order was placed. The UCP door answers them (2026-08-25) after
// the agent's own call has shown the session or order to be its; the admin order page shows them to staff.
import { z } from "zod";
import { Invalid } from "../../core/errors.ts";
import { defineTool, READ } from "../tool.ts";
import { checkoutId, consentRecord } from "./schemas.ts";

export const policySnapshot = z.strictObject({
  returns: z.string(),
  shipping: z.string(),
  privacy: z.string(),
  terms: z.string(),
  capturedAt: z.string().describe("When the order was placed under them."),
});
export type PolicySnapshot = z.infer<typeof policySnapshot>;

export const agreement = z.strictObject({
  checkoutId: z.string(),
  orderId: z.string().nullable(),
  consent: consentRecord.nullable().describe("Per purpose as the agent gave it; null when it gave none in that form."),
  policies: policySnapshot.nullable().describe("The policy texts the order was placed under; null before an order."),
});
export type Agreement = z.infer<typeof agreement>;

export default defineTool({
  name: "checkout.agreement",
  description: "The buyer's consent and the policies an order was placed under, by checkout session or order id; null when neither is known.",
  input: z.strictObject({
    checkoutId: checkoutId.optional(),
    orderId: z.string().min(1).max(100).optional().describe("The order's id."),
  }),
  output: agreement.nullable(),
  scope: "orders:read",
  anonymous: false,
  audited: false,
  internal: true,
  annotations: READ,
  examples: [{ orderId: "c000000000000000000000000" }],
  async handler({ checkoutId: id, orderId }, ctx) {
    if ((id === undefined) === (orderId === undefined)) throw new Invalid("Give checkoutId or orderId, not both.", [{ path: "checkoutId", message: "exactly one of checkoutId and orderId" }]);
    const session = await ctx.db.checkoutSession.findUnique({ where: id ? { id } : { orderId: orderId! }, select: { id: true, orderId: true, consent: true } });
    if (!session) return null;
    const order = session.orderId ? await ctx.db.order.findUnique({ where: { id: session.orderId }, select: { policySnapshot: true } }) : null;
    const consent = consentRecord.safeParse(session.consent);
    const policies = policySnapshot.safeParse(order?.policySnapshot);
    return {
      checkoutId: session.id,
      orderId: session.orderId,
      consent: session.consent !== null && consent.success ? consent.data : null,
      policies: policies.success ? policies.data : null,
    };
  },
});
