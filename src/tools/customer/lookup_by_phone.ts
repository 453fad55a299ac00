// customer.lookup_by_phone: staff find a customer by phone number (digits compared, +45 optional); a session only its own.
import { z } from "zod";
import { Prisma } from "../../generated/prisma/client.ts";
import { defineTool, READ } from "../tool.ts";
import { customerOutput, visibleCustomer } from "./customers.ts";

/** The digit strings a Danish number may be stored as: with and without the 45 country code. */
function phoneVariants(phone: string): string[] {
  const digits = phone.replace(/\D/g, "").replace(/^00/, "");
  if (digits.length === 8) return [digits, `45${digits}`];
  if (digits.length === 10 && digits.startsWith("45")) return [digits, digits.slice(2)];
  return [digits];
}

export default defineTool({
  name: "customer.lookup_by_phone",
  description:
    "A customer by phone (digits compared, +45 optional; shared number: the newest), as customer.lookup_by_email.",
  input: z.strictObject({
    phone: z.string().regex(/^[0-9 ()+.-]{8,20}$/, "A phone number: 8 to 20 characters of digits, spaces, +, dashes, dots and brackets")
      .refine((v) => v.replace(/\D/g, "").length >= 8, "At least 8 digits")
      .describe("E.g. \"+45 12 34 56 78\"."),
  }),
  output: customerOutput,
  scope: "customer:read",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{ phone: "+45 20 11 22 33" }],
  async handler({ phone }, ctx) {
    const variants = Prisma.join(phoneVariants(phone));
    const where = Prisma.sql`regexp_replace(coalesce(c.phone, ''), '[^0-9]', '', 'g') IN (${variants})`;
    return visibleCustomer(ctx.db, ctx.caller, where, `No customer with the phone number ${phone}.`);
  },
});
