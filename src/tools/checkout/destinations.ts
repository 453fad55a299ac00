// The buyer's saved addresses in a checkout session: offered as destinations, picked by id, and new ones kept for next
// time. Only for a buyer the caller has shown to be: the signed-in shopper of a storefront session, or, in UCP test mode
// (as the protocol's samples behave), whoever names the buyer's e-mail. Elsewhere an e-mail is a claim, not a proof, and
// nobody's home address is given to a caller who merely knows it.
import { Invalid, Refused } from "../../core/errors.ts";
import type { Address } from "../../generated/prisma/client.ts";
import { validateAddress } from "../address/postal-codes.ts";
import type { ToolContext } from "../context.ts";
import { listBook, MAX_ADDRESSES } from "../customer/addresses.ts";
import type { Buyer, Destination, StoredDestination, StoredFulfillment } from "./schemas.ts";

/** The customer the caller has shown to be the buyer, or null. `create` makes one in test mode for a new e-mail. */
async function provenBuyer(ctx: ToolContext, buyer: Buyer | null, create = false): Promise<string | null> {
  const { caller } = ctx;
  if (caller.kind === "session" && caller.session?.persistent && caller.session.customerId) return caller.session.customerId;
  if (!ctx.config.ucpTestMode || !buyer?.email) return null;
  const email = buyer.email.toLowerCase();
  const known = await ctx.db.customer.findUnique({ where: { email }, select: { id: true } });
  if (known || !create) return known?.id ?? null;
  const name = [buyer.firstName, buyer.lastName].filter(Boolean).join(" ") || email;
  const made = await ctx.db.customer.upsert({ where: { email }, create: { email, name, phone: buyer.phone ?? null }, update: {} });
  return made.id;
}

function asDestination(row: Address): StoredDestination {
  return {
    id: row.id,
    name: row.name,
    street: row.address,
    postalCode: row.zip,
    city: row.city,
    ...(row.region ? { region: row.region } : {}),
    country: row.country,
  };
}

/** The saved addresses a session offers: the proven buyer's book while the caller has not given an address of its own. */
export async function offeredDestinations(ctx: ToolContext, buyer: Buyer | null, fulfillment: StoredFulfillment): Promise<StoredDestination[]> {
  if (fulfillment.destination && !fulfillment.picked) return [];
  const customerId = await provenBuyer(ctx, buyer);
  return customerId ? (await listBook(ctx.db, customerId)).map(asDestination) : [];
}

/** Ships to the proven buyer's saved address `id` (422 destination_unknown when the book has no such address). */
async function pickDestination(ctx: ToolContext, buyer: Buyer | null, id: string): Promise<StoredFulfillment["destination"]> {
  const customerId = await provenBuyer(ctx, buyer);
  const row = customerId ? await ctx.db.address.findFirst({ where: { id, customerId } }) : null;
  if (!row) throw new Refused("destination_unknown", `There is no saved address "${id}" for this buyer; give the destination instead.`);
  return asDestination(row);
}

const same = (a: string | undefined, b: string) => (a ?? "").trim().toLowerCase() === b.trim().toLowerCase();

/** The fulfilment once a create or update has named a destination: an address, a saved one's id, or null to clear it. */
export async function withDestination(
  ctx: ToolContext,
  buyer: Buyer | null,
  fulfillment: StoredFulfillment,
  given: { destination?: Destination | null; destinationId?: string },
): Promise<StoredFulfillment> {
  if (given.destination !== undefined && given.destinationId !== undefined) {
    throw new Invalid("Give destination or destinationId, not both.", [{ path: "destinationId", message: "Not with destination" }]);
  }
  // The current destination's own id keeps it (agents echo the selection back).
  if (given.destinationId !== undefined && given.destinationId === fulfillment.destination?.id) return fulfillment;
  if (given.destinationId !== undefined) return { ...fulfillment, destination: await pickDestination(ctx, buyer, given.destinationId), picked: true };
  if (given.destination === undefined) return fulfillment;
  if (given.destination === null) return { ...fulfillment, destination: null, picked: false };
  const id = given.destination.id ?? (await rememberDestination(ctx, buyer, given.destination)) ?? fulfillment.destination?.id ?? "dest_1";
  return { ...fulfillment, destination: { ...given.destination, id }, picked: false };
}

/**
 * The id of an address the caller gave without one: the proven buyer's saved address with the same street, postal code
 * and country, else a new entry in their book (a complete, valid address, while the book has room); null otherwise.
 */
async function rememberDestination(ctx: ToolContext, buyer: Buyer | null, destination: Destination): Promise<string | null> {
  const { country } = destination;
  if (!destination.street || !destination.postalCode || !destination.city) return null;
  // Danish addresses are kept as the register writes them, and only valid ones.
  const check = country === "DK" ? validateAddress({ address: destination.street, zip: destination.postalCode, city: destination.city }).normalized : null;
  if (country === "DK" && !check) return null;
  const { address: street, zip: postalCode, city } = check ?? { address: destination.street, zip: destination.postalCode, city: destination.city };
  const customerId = await provenBuyer(ctx, buyer, true);
  if (!customerId) return null;
  // Serialises this customer's book changes, as customer.save_address does: the size limit holds under racing updates.
  await ctx.db.$queryRaw`SELECT id FROM "Customer" WHERE id = ${customerId} FOR UPDATE`;
  const book = await ctx.db.address.findMany({ where: { customerId } });
  const match = book.find((row) => same(street, row.address) && same(postalCode, row.zip) && row.country === country);
  if (match) return match.id;
  if (book.length >= MAX_ADDRESSES) return null;
  const customer = await ctx.db.customer.findUniqueOrThrow({ where: { id: customerId }, select: { name: true, email: true } });
  const name = destination.name ?? ([buyer?.firstName, buyer?.lastName].filter(Boolean).join(" ") || customer.name || customer.email);
  const now = ctx.now();
  const row = await ctx.db.address.create({
    data: { customerId, name, address: street, zip: postalCode, city, region: destination.region ?? null, country, isDefault: book.length === 0, createdAt: now, lastUsedAt: now },
  });
  await ctx.audit({ subjectType: "address", subjectId: row.id, before: null, after: row });
  return row.id;
}
