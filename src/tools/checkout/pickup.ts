// Parcel shops in a checkout session: the shop's pickup delivery methods (the storefront's PostNord and GLS pakkeshop
// methods, settings → shipping) as options beside home delivery, for a session that asked for them (offerPickup), and
// the parcel shop chosen for one. A pickup option costs what the storefront charges for its method (free from the
// method's threshold, else the shop's), and its order records the method and parcel shop as the storefront's does.
import type { Settings } from "../settings/schemas.ts";
import { chooseDelivery, freeFrom, listPrice, pickupPointsOf, type DeliveryChoice } from "../cart/delivery.ts";
import { PICKUP_PREFIX, type Message, type SessionView, type StoredFulfillment } from "./schemas.ts";
import type { ShippingOption } from "./shipping-options.ts";

type Shipping = Settings["shipping"];
type PickupPoints = NonNullable<SessionView["fulfillment"]["pickupPoints"]>;

/** The pickup methods that have parcel shops, as options priced for `goods` (the goods total after discounts). */
export function pickupOptions(shipping: Shipping, own: Record<string, number>, goods: number, hasLines: boolean): ShippingOption[] {
  return shipping.methods
    .filter((method) => method.kind === "pickup" && shipping.pickupPoints.some((point) => point.carrier === method.carrier))
    .map((method) => ({
      id: `${PICKUP_PREFIX}${method.id}`,
      title: method.name,
      description: `Pickup at a ${method.carrier} parcel shop in ${method.minDays}–${method.maxDays} business days.`,
      amount: hasLines && goods >= freeFrom(shipping, method, own) ? 0 : listPrice(shipping, method),
    }));
}

/** The parcel shops of the offered pickup options, nearest `zip` first (10 per carrier), the chosen one always among them. */
export function pickupPointsOffered(shipping: Shipping, options: readonly ShippingOption[], zip: string | null, chosen: string | null): PickupPoints {
  const carriers = new Set(
    options.flatMap((option) => {
      const method = methodOf(shipping, option.id);
      return method ? [method.carrier] : [];
    }),
  );
  const points: PickupPoints = [...carriers].flatMap((carrier) => pickupPointsOf(shipping, carrier, zip).map((point) => ({ ...point, carrier })));
  const picked = shipping.pickupPoints.find((point) => point.id === chosen);
  if (picked && !points.some((point) => point.id === picked.id)) points.push({ ...picked });
  return points;
}

/** The delivery method behind a pickup option id, or undefined for any other option. */
export function methodOf(shipping: Shipping, optionId: string | null): Shipping["methods"][number] | undefined {
  if (!optionId?.startsWith(PICKUP_PREFIX)) return undefined;
  const id = optionId.slice(PICKUP_PREFIX.length);
  return shipping.methods.find((method) => method.id === id && method.kind === "pickup");
}

/** The pickup option of a parcel shop's carrier (its first pickup method), or null. */
export function optionForPoint(shipping: Shipping, pointId: string | null): string | null {
  const point = shipping.pickupPoints.find((candidate) => candidate.id === pointId);
  const method = point && shipping.methods.find((candidate) => candidate.kind === "pickup" && candidate.carrier === point.carrier);
  return method ? `${PICKUP_PREFIX}${method.id}` : null;
}

/** What a chosen pickup option still lacks: a parcel shop, or one of its carrier. */
export function pickupProblem(shipping: Shipping, optionId: string, fulfillment: StoredFulfillment): Message | null {
  const method = methodOf(shipping, optionId)!;
  const id = fulfillment.pickupPointId ?? null;
  const path = "fulfillment.pickupPointId";
  if (id === null) return { type: "error", code: "pickup_point_required", content: `${method.name} delivers to a parcel shop: choose one of fulfillment.pickupPoints.`, path, severity: "recoverable" };
  const point = shipping.pickupPoints.find((candidate) => candidate.id === id);
  if (!point || point.carrier !== method.carrier) {
    return { type: "error", code: "invalid_pickup_point", content: `${method.carrier} has no parcel shop "${id}"; choose one of fulfillment.pickupPoints.`, path, severity: "recoverable" };
  }
  return null;
}

/** The order's delivery for a chosen pickup option (method, its list price and threshold, the parcel shop), else null. */
export function pickupDelivery(shipping: Shipping, optionId: string | null, pickupPointId: string | null | undefined, own: Record<string, number>): DeliveryChoice | null {
  const method = methodOf(shipping, optionId);
  if (!method || !pickupPointId) return null;
  return chooseDelivery(shipping, method.id, pickupPointId, own);
}
