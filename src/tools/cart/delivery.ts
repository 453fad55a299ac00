// Delivery methods at checkout: the methods and parcel shops of the "shipping" settings, what each costs a cart (the
// shop's free-shipping threshold applies to every method without one of its own), and the checked choice cart.checkout stores on the order.
import { z } from "zod";
import { Refused } from "../../core/errors.ts";
import type { Settings } from "../settings/schemas.ts";

type Shipping = Settings["shipping"];
export type DeliveryMethod = Shipping["methods"][number];
export type PickupPoint = Omit<Shipping["pickupPoints"][number], "carrier">;

/** How many parcel shops of a carrier one answer lists. */
const PICKUP_LIMIT = 10;

export const pickupPointOutput = z.strictObject({
  id: z.string(),
  name: z.string(),
  address: z.string(),
  zip: z.string(),
  city: z.string(),
});

/** The delivery method an order was placed with (its price is the order's shippingDkk), as order tools answer it. */
export const orderDelivery = z
  .strictObject({ method: z.string(), name: z.string(), carrier: z.string(), pickupPoint: pickupPointOutput.nullable().describe("The parcel shop, or null for home delivery.") })
  .nullable()
  .describe("The delivery method chosen at checkout (price: the order's shippingDkk), or null when none was.");

/** An order's delivery method from its columns, or null when it was placed without one. */
export function deliveryOf(order: { deliveryMethodId: string | null; deliveryMethodName: string | null; deliveryCarrier: string | null; pickupPoint: unknown }): z.input<typeof orderDelivery> {
  if (!order.deliveryMethodId || !order.deliveryMethodName || !order.deliveryCarrier) return null;
  return { method: order.deliveryMethodId, name: order.deliveryMethodName, carrier: order.deliveryCarrier, pickupPoint: (order.pickupPoint as PickupPoint | null) ?? null };
}

/** A chosen method with its price (before the free-shipping threshold) and, for pickup, the parcel shop. */
export interface DeliveryChoice {
  method: DeliveryMethod;
  listPriceDkk: number;
  /** The goods total from which this method is free: its own threshold (settings.update_sale_terms), else the shop's. */
  freeFromDkk: number;
  pickupPoint: PickupPoint | null;
}

export function listPrice(shipping: Shipping, method: DeliveryMethod): number {
  return method.priceDkk ?? shipping.flatRateDkk;
}

/** The goods total (after discount) from which a method is free: its own threshold, else the shop's. */
export function freeFrom(shipping: Shipping, method: DeliveryMethod, own: Record<string, number>): number {
  return Object.hasOwn(own, method.id) ? own[method.id]! : shipping.freeShippingThresholdDkk;
}

/** The carrier's parcel shops, nearest postal code first when a zip is given (by number: Danish codes run by region). */
export function pickupPointsOf(shipping: Shipping, carrier: string, zip: string | null, limit = PICKUP_LIMIT): PickupPoint[] {
  const points = shipping.pickupPoints.filter((point) => point.carrier === carrier);
  const near = zip === null ? points : [...points].sort((a, b) => Math.abs(Number(a.zip) - Number(zip)) - Math.abs(Number(b.zip) - Number(zip)));
  return near.slice(0, limit).map(({ id, name, address, zip: code, city }) => ({ id, name, address, zip: code, city }));
}

/**
 * The method (default: the first) and parcel shop asked for; null when the shop defines no methods (then the flat
 * rate applies as before). 422 unknown_delivery_method, pickup_point_required, invalid_pickup_point (unknown, or of
 * another carrier). A parcel shop given for home delivery is ignored.
 */
export function chooseDelivery(shipping: Shipping, methodId: string | undefined, pickupPointId: string | undefined, own: Record<string, number> = {}): DeliveryChoice | null {
  if (methodId === undefined && shipping.methods.length === 0) return null;
  const method = methodId === undefined ? shipping.methods[0] : shipping.methods.find((candidate) => candidate.id === methodId);
  if (!method) {
    throw new Refused("unknown_delivery_method", `No delivery method "${methodId}"; cart.delivery_options lists them: ${shipping.methods.map((m) => m.id).join(", ") || "none"}.`);
  }
  const priced = { method, listPriceDkk: listPrice(shipping, method), freeFromDkk: freeFrom(shipping, method, own) };
  if (method.kind === "home") return { ...priced, pickupPoint: null };
  if (pickupPointId === undefined) {
    throw new Refused("pickup_point_required", `${method.name} delivers to a parcel shop: give pickupPointId (cart.delivery_options lists them).`);
  }
  const point = shipping.pickupPoints.find((candidate) => candidate.id === pickupPointId);
  if (!point || point.carrier !== method.carrier) {
    throw new Refused("invalid_pickup_point", `${method.carrier} has no parcel shop "${pickupPointId}"; cart.delivery_options lists its parcel shops.`);
  }
  const { id, name, address, zip, city } = point;
  return { ...priced, pickupPoint: { id, name, address, zip, city } };
}
