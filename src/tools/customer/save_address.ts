// customer.save_address: add an address to a customer's book, or change one; optionally make it the default.
import { z } from "zod";
import { Refused } from "../../core/errors.ts";
import { checkedAddress } from "../orders/place.ts";
import { defineTool, WRITE } from "../tool.ts";
import { addressView, bookOwner, customerIdInput, MAX_ADDRESSES, ownAddress, toAddressView } from "./addresses.ts";

export default defineTool({
  name: "customer.save_address",
  description:
    "Save an address in a customer's book: without id a new one, else that one (Danish ones checked). The first, or " +
    "one with isDefault, is the default. Returns the address.",
  errors: [
    { status: 422, code: "too_many_addresses", when: "a 21st address" },
    { status: 422, code: "invalid_address" },
  ],
  input: z.strictObject({
    customerId: customerIdInput,
    id: z.string().min(1).max(200).optional().describe("Address to change; omit to add one."),
    name: z.string().trim().min(2).max(200).describe("Recipient."),
    address: z.string().trim().min(2).max(200).describe("Street and number."),
    zip: z.string().trim().regex(/^[A-Za-z0-9 -]{2,12}$/, "2 to 12 letters, digits, spaces or hyphens").describe("Postal code; 4 digits in Denmark."),
    city: z.string().trim().min(1).max(100).describe("City; in Denmark the postal code's."),
    country: z.string().regex(/^[A-Z]{2}$/, "ISO 3166-1 alpha-2, e.g. DK").optional().describe("Default DK."),
    region: z.string().trim().min(1).max(100).optional().describe("State or province, if any."),
    phone: z.string().regex(/^\+?[0-9 ()-]{6,30}$/, "Use digits, spaces, ( ) - and an optional leading +").optional().describe("Recipient phone."),
    isDefault: z.boolean().optional().describe("Make it the default."),
  }),
  output: addressView,
  scope: "customer:write",
  anonymous: false,
  audited: true,
  annotations: WRITE,
  examples: [{ customerId: "demo-customer-mette", name: "Mette Hansen", address: "Vestergade 4", zip: "8000", city: "Aarhus C", isDefault: true }],
  async handler(input, ctx) {
    const owner = await bookOwner(ctx.db, ctx.caller, input.customerId);
    // Serialises this customer's book changes: the count limit and the one default hold under concurrent saves.
    await ctx.db.$queryRaw`SELECT id FROM "Customer" WHERE id = ${owner} FOR UPDATE`;
    const country = input.country ?? "DK";
    const place = country === "DK" ? checkedAddress("Address", input) : { address: input.address, zip: input.zip, city: input.city };
    const before = input.id ? await ownAddress(ctx.db, owner, input.id) : null;
    const count = await ctx.db.address.count({ where: { customerId: owner } });
    if (!before && count >= MAX_ADDRESSES) throw new Refused("too_many_addresses", `An address book holds at most ${MAX_ADDRESSES} addresses; delete one first.`);
    const isDefault = input.isDefault === true || count === 0 || (before?.isDefault ?? false);
    if (isDefault) await ctx.db.address.updateMany({ where: { customerId: owner, isDefault: true, ...(before ? { id: { not: before.id } } : {}) }, data: { isDefault: false } });
    const data = { name: input.name, address: place.address, zip: place.zip, city: place.city, country, region: input.region ?? null, phone: input.phone ?? null, isDefault };
    const after = before
      ? await ctx.db.address.update({ where: { id: before.id }, data })
      : await ctx.db.address.create({ data: { ...data, customerId: owner, createdAt: ctx.now(), lastUsedAt: ctx.now() } });
    await ctx.audit({ subjectType: "address", subjectId: after.id, before, after });
    return toAddressView(after);
  },
});
