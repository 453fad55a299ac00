// Shared set-up of the checkout.* tool tests: a ready session for a key, and the destination and buyer it uses.
import type { SessionView } from "../../../src/tools/checkout/schemas.ts";
import { expectOk } from "../../support/expect.ts";
import type { TestServer } from "../../support/server.ts";
import { plainProducts } from "../../support/session.ts";

export const BUYER = { email: "agent.buyer@example.dk", firstName: "Mette", lastName: "Hansen" };
export const DESTINATION = { street: "Strøget 12", postalCode: "1160", city: "København K", country: "DK" };

/** A checkout session of `key` holding `quantity` units of a plain demo product; ready unless `ready` is false. */
export async function openSession(server: TestServer, key: string, options: { quantity?: number; ready?: boolean; productIndex?: number } = {}) {
  const products = await plainProducts(server, options.quantity ?? 1);
  const product = products[options.productIndex ?? 0]!;
  const input = {
    lines: [{ itemId: product.id, quantity: options.quantity ?? 1 }],
    ...(options.ready === false ? {} : { buyer: BUYER, destination: DESTINATION }),
  };
  const view = expectOk<SessionView>(server, "checkout.create", await server.call("checkout.create", input, { key }));
  return { view, product };
}
