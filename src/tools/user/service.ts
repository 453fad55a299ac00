// The storefront session's own customer: every user.* tool answers only for it.
import { Refused } from "../../core/errors.ts";
import type { Caller } from "../context.ts";

/** The customer bound to the caller's storefront session; 422 no_customer when the session has none (or there is no session). */
export function sessionCustomerId(caller: Caller): string {
  const id = caller.session?.customerId;
  if (!id) {
    throw new Refused(
      "no_customer",
      "This storefront session is not linked to a customer yet: the shopper has to sign in (or place an order) first. Staff use customer.* and orders.* instead.",
    );
  }
  return id;
}
