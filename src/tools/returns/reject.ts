// returns.reject: refuse a requested return, with the reason the shopper is mailed.
import { z } from "zod";
import { defineTool, UPDATE } from "../tool.ts";
import { mailRejected } from "./emails.ts";
import { returnId, returnSnapshot, returnView, toReturnView, withItems } from "./schemas.ts";
import { assertMove, lockReturn } from "./return-rules.ts";

export default defineTool({
  name: "returns.reject",
  description: "Refuse a requested return; the reason is e-mailed to the shopper. Returns the return.",
  errors: [{ status: 422, code: "illegal_transition" }],
  input: z.strictObject({ returnId, reason: z.string().trim().min(1).max(1000).describe("For the shopper (Danish).") }),
  output: returnView,
  scope: "returns:write",
  anonymous: false,
  audited: true,
  annotations: UPDATE,
  examples: [{ returnId: "demo-return-3", reason: "Skaden skyldes slid efter to års brug, ikke en fejl ved varen." }],
  async handler(input, ctx) {
    const { ret, order } = await lockReturn(ctx, input.returnId);
    assertMove(ret, "rejected", "reject");
    const now = ctx.now();
    const after = await ctx.db.returnRequest.update({
      where: { id: ret.id },
      data: { status: "rejected", rejectReason: input.reason, rejectedAt: now, updatedAt: now },
      include: withItems,
    });
    await ctx.audit({ subjectType: "return", subjectId: ret.id, before: returnSnapshot(ret), after: returnSnapshot(after) });
    mailRejected(ctx, order, after);
    return toReturnView(after);
  },
});
