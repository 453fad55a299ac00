// The storefront chat's checkout confirm card names a gift card by its last four symbols only (src/web/client/chat/gift-card.ts).
import { describe, expect, it } from "vitest";
import { giftCardOf } from "../../../src/web/client/chat/gift-card.ts";

describe("the checkout confirm card", () => {
  it("names the gift card of a checkout call by its last four symbols, however it was typed", () => {
    expect(giftCardOf("cart_checkout", { giftCardCode: "KXRT-7M2Q-PB4N-Z8WA" })).toBe("Z8WA");
    expect(giftCardOf("cart_checkout", { giftCardCode: "kxrt 7m2q pb4n z8 wa " })).toBe("Z8WA");
  });

  it("names none without a code, for other tools, or for input that is not an object", () => {
    expect(giftCardOf("cart_checkout", {})).toBeNull();
    expect(giftCardOf("cart_checkout", { giftCardCode: "  " })).toBeNull();
    expect(giftCardOf("support_create_ticket", { giftCardCode: "KXRT-7M2Q-PB4N-Z8WA" })).toBeNull();
    expect(giftCardOf("cart_checkout", null)).toBeNull();
    expect(giftCardOf("cart_checkout", "KXRT")).toBeNull();
  });
});
