// returns.approve: accept a requested return; the shopper is mailed how to send it back and the refund deadline starts.
import { z } from "zod";
import { defineTool, UPDATE } from "../tool.ts";
import { refundDeadline } from "./deadlines.ts";
import { mailApproved } from "./emails.ts";
import { reserveExchange } from "./exchange.ts";
import { returnId, returnSnapshot, returnView, toReturnView, withItems } from "./schemas.ts";
import { assertMove, lockReturn } from "./return-rules.ts";

export default defineTool({
  name: "returns.approve",
  description:
    "Approve a requested return: e-mails instructions, sets refundDueBy (14 days), reserves an exchange's variant. " +
    "Returns the return.",
  errors: [
    { status: 422, code: "illegal_transition" },
    { status: 422, code: "insufficient_stock" },
  ],
  input: z.strictObject({ returnId }),
  output: returnView,
  scope: "returns:write",
  anonymous: false,
  audited: true,
  annotations: UPDATE,
  examples: [{ returnId: "demo-return-1" }],
  async handler(input, ctx) {
    const { ret, order } = await lockReturn(ctx, input.returnId);
    assertMove(ret, "approved", "approve");
    if (ret.exchangeVariantId) await reserveExchange(ctx, ret);
    const now = ctx.now();
    const after = await ctx.db.returnRequest.update({
      where: { id: ret.id },
      data: { status: "approved", approvedAt: now, refundDueBy: refundDeadline(now), updatedAt: now },
      include: withItems,
    });
    await ctx.audit({ subjectType: "return", subjectId: ret.id, before: returnSnapshot(ret), after: returnSnapshot(after) });
    mailApproved(ctx, order, after);
    return toReturnView(after);
  },
});
