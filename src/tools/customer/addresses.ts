// The customer address book, shared by customer.list_addresses, save_address and delete_address: whose book a call
// may touch (a signed-in shopper only their own, staff anyone's by id), the address as the tools show it.
import { z } from "zod";
import { Invalid, NotFound } from "../../core/errors.ts";
import type { Db } from "../../core/db.ts";
import type { Address } from "../../generated/prisma/client.ts";
import type { Caller } from "../context.ts";
import { sessionCustomerId } from "../user/own-customer.ts";

/** Most addresses one customer keeps. */
export const MAX_ADDRESSES = 20;

export const customerIdInput = z.string().min(1).max(200).optional().describe("Staff: whose book (shoppers: own).");

export const addressView = z.strictObject({
  id: z.string(),
  name: z.string(),
  address: z.string(),
  zip: z.string(),
  city: z.string(),
  region: z.string().nullable(),
  country: z.string().describe("ISO 3166-1 alpha-2."),
  phone: z.string().nullable(),
  isDefault: z.boolean(),
});

export type AddressView = z.output<typeof addressView>;

export function toAddressView(row: Address): AddressView {
  return { id: row.id, name: row.name, address: row.address, zip: row.zip, city: row.city, region: row.region, country: row.country, phone: row.phone, isDefault: row.isDefault };
}

/**
 * The customer whose book this call works on: a storefront session's own signed-in customer (422 no_customer when there
 * is none; another id is answered as unknown, so a session never learns who exists), else the given customerId.
 */
export async function bookOwner(db: Db, caller: Caller, customerId: string | undefined): Promise<string> {
  if (caller.kind === "session") {
    const own = sessionCustomerId(caller);
    if (customerId !== undefined && customerId !== own) throw new NotFound(`No customer with id "${customerId}".`);
    return own;
  }
  if (customerId === undefined) throw new Invalid("Staff name the customer: customerId is required outside a storefront session.", [{ path: "customerId", message: "Required" }]);
  const customer = await db.customer.findUnique({ where: { id: customerId }, select: { id: true } });
  if (!customer) throw new NotFound(`No customer with id "${customerId}".`);
  return customer.id;
}

/** One address of the owner's book, or 404 (someone else's address is answered like a missing one). */
export async function ownAddress(db: Db, owner: string, id: string): Promise<Address> {
  const row = await db.address.findFirst({ where: { id, customerId: owner } });
  if (!row) throw new NotFound(`No address with id "${id}" in this address book.`);
  return row;
}

/** The book, default first, then the most recently used. */
export function listBook(db: Db, owner: string): Promise<Address[]> {
  return db.address.findMany({ where: { customerId: owner }, orderBy: [{ isDefault: "desc" }, { lastUsedAt: "desc" }, { id: "asc" }], take: MAX_ADDRESSES * 2 });
}
