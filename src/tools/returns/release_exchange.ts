// returns.release_exchange: an approved exchange whose parcel never came keeps the new variant's units reserved; after
// the refund deadline staff give them back to stock and close the return, audited, so they can be sold again.
import { z } from "zod";
import { Refused } from "../../core/errors.ts";
import { defineTool, DESTRUCTIVE } from "../tool.ts";
import { mailRejected } from "./emails.ts";
import { returnId, returnSnapshot, returnView, toReturnView, withItems } from "./schemas.ts";
import { lockReturn } from "./return-rules.ts";

export default defineTool({
  name: "returns.release_exchange",
  description:
    "Restock an overdue approved exchange's reserved units; rejects it, mails the shopper. Returns the return.",
  errors: [
    { status: 422, code: "illegal_transition", when: "not an approved exchange" },
    { status: 422, code: "deadline_not_passed" },
  ],
  input: z.strictObject({ returnId }),
  output: returnView,
  scope: "returns:write",
  anonymous: false,
  audited: true,
  annotations: DESTRUCTIVE,
  examples: [{ returnId: "demo-return-2" }],
  async handler(input, ctx) {
    const { ret, order } = await lockReturn(ctx, input.returnId);
    // Only approval reserves units, and a receipt or release (both under the order's lock) ends the reservation once.
    if (ret.status !== "approved" || !ret.exchangeVariantId) {
      throw new Refused("illegal_transition", `Return ${ret.id} is "${ret.status}"${ret.exchangeVariantId ? "" : " and no exchange"}: only an approved exchange holds reserved units.`);
    }
    const now = ctx.now();
    if (!ret.refundDueBy || now <= ret.refundDueBy) {
      throw new Refused("deadline_not_passed", `Return ${ret.id}'s parcel may still come: its deadline is ${ret.refundDueBy?.toISOString() ?? "not set"}.`);
    }
    const units = BigInt(ret.items.reduce((sum, item) => sum + item.quantity, 0));
    const variant = await ctx.db.productVariant.update({ where: { id: ret.exchangeVariantId }, data: { stock: { increment: units }, updatedAt: now }, select: { productId: true } });
    await ctx.collaborators.catalog.changed(ctx, { stock: [variant.productId] });
    const reason = "Vi har ikke modtaget de varer, der skulle ombyttes, inden fristen, så ombytningen er annulleret og den reserverede vare frigivet.";
    const after = await ctx.db.returnRequest.update({
      where: { id: ret.id },
      data: { status: "rejected", rejectReason: reason, rejectedAt: now, updatedAt: now },
      include: withItems,
    });
    await ctx.audit({ subjectType: "return", subjectId: ret.id, before: returnSnapshot(ret), after: returnSnapshot(after), note: `released ${units} reserved units of ${ret.exchangeVariantId}` });
    mailRejected(ctx, order, after);
    return toReturnView(after);
  },
});
