// What the storefront says about paying matches what the shop is set up for: Stripe's configured methods, or bank
// transfer without Stripe; and STRIPE_PAYMENT_METHODS takes only methods Stripe offers a Danish shop.
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/core/config.ts";
import { paymentMethodsPhrase, paymentMethodsText } from "../../src/web/storefront/texts.ts";

const shop = (name: string, methods: string[]) => ({ config: { stripePaymentMethods: methods }, payments: { name } });

describe("payment methods", () => {
  it("are said as configured", () => {
    expect(paymentMethodsText(shop("manual", ["card", "mobilepay"]))).toBe("Bankoverførsel");
    expect(paymentMethodsText(shop("stripe", ["card", "mobilepay"]))).toBe("Kort eller MobilePay");
    expect(paymentMethodsText(shop("stripe", ["mobilepay"]))).toBe("MobilePay");
    expect(paymentMethodsText(shop("stripe", ["card", "mobilepay", "klarna"]))).toBe("Kort, MobilePay eller Klarna");
    expect(paymentMethodsPhrase(shop("stripe", ["card", "mobilepay"]))).toBe("kort eller MobilePay");
    expect(paymentMethodsPhrase(shop("stripe", ["mobilepay", "card"]))).toBe("MobilePay eller kort");
    expect(paymentMethodsPhrase(shop("manual", ["card"]))).toBe("bankoverførsel");
  });

  it("are read from STRIPE_PAYMENT_METHODS, card and MobilePay by default, anything else refused at start", () => {
    expect(loadConfig({}).stripePaymentMethods).toEqual(["card", "mobilepay"]);
    expect(loadConfig({ STRIPE_PAYMENT_METHODS: " mobilepay , card,card" }).stripePaymentMethods).toEqual(["mobilepay", "card"]);
    expect(() => loadConfig({ STRIPE_PAYMENT_METHODS: "card,bitcoin" })).toThrow(/STRIPE_PAYMENT_METHODS/);
    expect(() => loadConfig({ STRIPE_PAYMENT_METHODS: " , " })).toThrow(/STRIPE_PAYMENT_METHODS/);
  });
});
