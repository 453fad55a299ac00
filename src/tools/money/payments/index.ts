// Picks the payment provider: Stripe when STRIPE_SECRET_KEY is set, else manual bank transfer / invoice.
import type { Config } from "../../../core/config.ts";
import { ManualPayments } from "./manual.ts";
import type { PaymentProvider } from "./provider.ts";

export async function createPaymentProvider(config: Config, secret: string): Promise<PaymentProvider> {
  if (!config.stripeSecretKey) return new ManualPayments(config.publicBaseUrl, secret);
  // The Stripe SDK is large: a shop without Stripe never loads it.
  const { StripePayments } = await import("./stripe.ts");
  return new StripePayments(config, secret);
}
