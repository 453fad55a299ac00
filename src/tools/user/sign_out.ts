// user.sign_out: unbinds the storefront session from its customer; the cart stays.
import { z } from "zod";
import { defineTool, UPDATE } from "../tool.ts";
import { ownSession } from "./login.ts";

export default defineTool({
  name: "user.sign_out",
  description: "Sign the shopper out: the session leaves the customer, the cart stays. Returns {signedOut}.",
  input: z.strictObject({}),
  output: z.strictObject({ signedOut: z.boolean().describe("True when a customer was bound until now.") }),
  scope: "cart:write",
  anonymous: false,
  audited: false,
  annotations: UPDATE,
  examples: [{}],
  async handler(_input, ctx) {
    const session = ownSession(ctx);
    const changed = await ctx.db.storefrontSession.updateMany({ where: { id: session.id, customerId: { not: null } }, data: { customerId: null } });
    return { signedOut: changed.count > 0 };
  },
});
