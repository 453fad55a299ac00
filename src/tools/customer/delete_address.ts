// customer.delete_address: remove an address from a customer's book (orders keep their own copy of where they went).
import { z } from "zod";
import { defineTool, DESTRUCTIVE } from "../tool.ts";
import { bookOwner, customerIdInput, ownAddress } from "./addresses.ts";

export default defineTool({
  name: "customer.delete_address",
  description:
    "Delete an address from a customer's book (orders keep theirs); a deleted default passes to the last used one. " +
    "Returns {id, deleted}.",
  errors: [{ status: 404, when: "not in this book" }],
  input: z.strictObject({ customerId: customerIdInput, id: z.string().min(1).max(200).describe("From customer.list_addresses.") }),
  output: z.strictObject({ id: z.string(), deleted: z.literal(true) }),
  scope: "customer:write",
  anonymous: false,
  audited: true,
  annotations: DESTRUCTIVE,
  examples: [{ customerId: "demo-customer-mette", id: "demo-address-mette" }],
  async handler(input, ctx) {
    const owner = await bookOwner(ctx.db, ctx.caller, input.customerId);
    await ctx.db.$queryRaw`SELECT id FROM "Customer" WHERE id = ${owner} FOR UPDATE`;
    const row = await ownAddress(ctx.db, owner, input.id);
    await ctx.db.address.delete({ where: { id: row.id } });
    if (row.isDefault) {
      const next = await ctx.db.address.findFirst({ where: { customerId: owner }, orderBy: [{ lastUsedAt: "desc" }, { id: "asc" }] });
      if (next) await ctx.db.address.update({ where: { id: next.id }, data: { isDefault: true } });
    }
    await ctx.audit({ subjectType: "address", subjectId: row.id, before: row, after: null });
    return { id: row.id, deleted: true as const };
  },
});
