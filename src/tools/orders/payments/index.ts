// Picks the payment provider: Stripe when STRIPE_SECRET_KEY is set, else manual bank transfer / invoice.
import type { Config } from "../../../core/config.ts";
import { ManualPayments } from "./manual.ts";
import type { PaymentProvider } from "./provider.ts";
import { StripePayments } from "./stripe.ts";

export function createPaymentProvider(config: Config, secret: string): PaymentProvider {
  return config.stripeSecretKey ? new StripePayments(config, secret) : new ManualPayments(config.publicBaseUrl, secret);
}
