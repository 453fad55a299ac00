// What an unshipped order's delivery can change to (orders.delivery_options, orders.change_delivery): the shop's
// delivery methods priced for the order's goods as checkout prices them, and the carriers' parcel shops nearest the
// order's postal code. The order's own method keeps the price it was ordered at.
import type { Order } from "../../generated/prisma/client.ts";
import type { Db } from "../../core/db.ts";
import { freeFrom, listPrice, pickupPointsOf, type DeliveryMethod, type PickupPoint } from "../cart/delivery.ts";
import { getFreeShippingFrom } from "../settings/sale-terms.ts";
import { shippingSettings } from "./pricing.ts";

export interface DeliveryOption {
  id: string;
  carrier: string;
  kind: "home" | "pickup";
  name: string;
  priceDkk: number;
  minDays: number;
  maxDays: number;
  pickupPoints: PickupPoint[];
}

/** A method's shipping price for this order: its own price when it is the order's method, else the checkout price. */
export function shippingFor(order: Order, settings: Awaited<ReturnType<typeof shippingSettings>>, own: Record<string, number>, method: DeliveryMethod): bigint {
  if (method.id === order.deliveryMethodId) return order.shippingDkk;
  const goods = order.subtotalDkk - order.discountDkk;
  return goods >= BigInt(freeFrom(settings, method, own)) ? 0n : BigInt(listPrice(settings, method));
}

export async function deliveryOptions(db: Db, order: Order): Promise<DeliveryOption[]> {
  const [settings, own] = await Promise.all([shippingSettings(db), getFreeShippingFrom(db)]);
  return settings.methods.map((method) => ({
    id: method.id,
    carrier: method.carrier,
    kind: method.kind,
    name: method.name,
    priceDkk: Number(shippingFor(order, settings, own, method)),
    minDays: method.minDays,
    maxDays: method.maxDays,
    pickupPoints: method.kind === "pickup" ? pickupPointsOf(settings, method.carrier, /^\d{4}$/.test(order.shippingZip) ? order.shippingZip : null) : [],
  }));
}
