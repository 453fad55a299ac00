// Shipping options of a checkout session when the shop has shipping rates (the "shipping_rates" setting): per service
// level the destination country's own rate, else the "default" one, cheapest first; a free-shipping promotion (by
// subtotal or by product) makes the standard level free.
import type { Promotion, ShippingRate } from "../settings/commerce.ts";

export interface ShippingOption {
  id: string;
  title: string;
  description: string;
  amount: number;
}

export function rateOptions(rates: readonly ShippingRate[], promotions: readonly Promotion[], country: string, subtotal: number, productIds: readonly string[]): ShippingOption[] {
  const free = promotions.some(
    (promotion) =>
      (promotion.minSubtotal !== null && subtotal >= promotion.minSubtotal) || (promotion.productIds ?? []).some((id) => productIds.includes(id)),
  );
  const byLevel = new Map<string, ShippingRate>();
  for (const rate of rates) {
    if (rate.country !== country && rate.country !== "default") continue;
    const held = byLevel.get(rate.serviceLevel);
    if (!held || (held.country === "default" && rate.country !== "default")) byLevel.set(rate.serviceLevel, rate);
  }
  return [...byLevel.values()]
    .sort((a, b) => a.amount - b.amount)
    .map((rate) => {
      const waived = free && rate.serviceLevel === "standard";
      return {
        id: rate.id,
        title: waived ? `${rate.title} (Free)` : rate.title,
        description: `${rate.serviceLevel} shipping to ${country}`,
        amount: waived ? 0 : rate.amount,
      };
    });
}
