// Stripe Checkout: one Checkout Session per order (amounts in minor units of its currency, metadata orderId), and webhook
// verification.
import Stripe from "stripe";
import type { Config } from "../../../core/config.ts";
import { orderRef } from "../../shared/order-numbers.ts";
import { CardRefused, paymentPageUrl, type PaymentOrder, type PaymentProvider, type PaymentSession } from "./provider.ts";

type LineItem = { quantity: number; price_data: { currency: string; unit_amount: number; product_data: { name: string } } };

function line(currency: string, name: string, unitAmount: number, quantity: number): LineItem {
  return { quantity, price_data: { currency, unit_amount: unitAmount, product_data: { name } } };
}

type StripeConfig = Pick<Config, "stripeSecretKey" | "stripeWebhookSecret" | "stripeApiUrl" | "publicBaseUrl" | "stripePaymentMethods">;

export class StripePayments implements PaymentProvider {
  readonly name = "stripe" as const;
  readonly client: Stripe;

  private readonly config: StripeConfig;
  private readonly secret: string;

  constructor(config: StripeConfig, secret: string) {
    this.config = config;
    this.secret = secret;
    const api = config.stripeApiUrl ? new URL(config.stripeApiUrl) : undefined;
    this.client = new Stripe(config.stripeSecretKey ?? "", {
      maxNetworkRetries: 1,
      ...(api ? { host: api.hostname, port: api.port || (api.protocol === "https:" ? 443 : 80), protocol: api.protocol === "http:" ? "http" : "https" } : {}),
    });
  }

  /**
   * Line items sum exactly to what is left to pay: the items and shipping when there is no discount and no gift card;
   * else one line "Ordre #1001" for the rest (Checkout has no negative lines, and coupons would need extra API objects).
   */
  static lineItems(order: PaymentOrder): LineItem[] {
    const currency = order.currency.toLowerCase();
    if (order.discountDkk > 0 || order.paidDkk > 0) return [line(currency, `Ordre ${orderRef(order.number)}`, order.totalDkk - order.paidDkk, 1)];
    const items = order.items.map((item) => line(currency, item.productName, item.unitPriceDkk, item.quantity));
    return order.shippingDkk > 0 ? [...items, line(currency, "Fragt", order.shippingDkk, 1)] : items;
  }

  async createPayment(order: PaymentOrder): Promise<PaymentSession> {
    const page = (result: string) => paymentPageUrl(this.config.publicBaseUrl, this.secret, order.id, `&result=${result}`);
    const session = await this.client.checkout.sessions.create(
      {
        mode: "payment",
        currency: order.currency.toLowerCase(),
        // A filter on what the Stripe Dashboard has switched on: the shop offers (and says) no more than these.
        allowed_payment_method_types: [...this.config.stripePaymentMethods],
        line_items: StripePayments.lineItems(order),
        customer_email: order.email,
        client_reference_id: order.id,
        metadata: { orderId: order.id },
        payment_intent_data: { metadata: { orderId: order.id } },
        success_url: page("success"),
        cancel_url: page("cancelled"),
      },
      { idempotencyKey: order.revision ? `order-${order.id}-${order.revision}` : `order-${order.id}` },
    );
    if (!session.url) throw new Error(`Stripe returned no URL for the Checkout Session of order ${order.id}.`);
    return { paymentUrl: session.url, providerSessionId: session.id };
  }

  /**
   * How a completed payment was actually paid (card, mobilepay …): a Checkout Session lists what it offered, the charge
   * says what the shopper chose. Null when Stripe does not say (the payment is still recorded, without a method).
   */
  async paidWith(paymentIntentId: string): Promise<string | null> {
    const intent = await this.client.paymentIntents.retrieve(paymentIntentId, { expand: ["latest_charge"] }, { timeout: 15_000 });
    const charge = intent.latest_charge;
    return typeof charge === "object" && charge?.payment_method_details?.type ? charge.payment_method_details.type : null;
  }

  pageUrl(orderId: string): string {
    return paymentPageUrl(this.config.publicBaseUrl, this.secret, orderId);
  }

  async refund(paymentIntentId: string, amount: number, idempotencyKey: string): Promise<{ id: string }> {
    const refund = await this.client.refunds.create({ payment_intent: paymentIntentId, amount }, { idempotencyKey, timeout: 15_000 });
    return { id: refund.id };
  }

  async chargeAgain(charge: { paymentIntentId: string; amount: number; currency: string; orderId: string; idempotencyKey: string }): Promise<{ id: string; method: string }> {
    const options = { timeout: 15_000 };
    const first = await this.client.paymentIntents.retrieve(charge.paymentIntentId, {}, options);
    const method = typeof first.payment_method === "string" ? first.payment_method : first.payment_method?.id;
    if (!method) throw new CardRefused(`Stripe holds no card of payment ${charge.paymentIntentId} to charge again.`, false);
    const customer = typeof first.customer === "string" ? first.customer : first.customer?.id;
    let intent: Stripe.PaymentIntent;
    try {
      intent = await this.client.paymentIntents.create(
        {
          amount: charge.amount,
          currency: charge.currency.toLowerCase(),
          payment_method: method,
          ...(customer ? { customer } : {}),
          off_session: true,
          confirm: true,
          metadata: { orderId: charge.orderId },
        },
        { ...options, idempotencyKey: charge.idempotencyKey },
      );
    } catch (error) {
      const status = (error as { statusCode?: number }).statusCode ?? 0;
      if (status >= 400 && status < 500) throw new CardRefused(error instanceof Error ? error.message : "refused", status === 402);
      throw error;
    }
    // Off-session, nobody can answer 3-D Secure: the customer pays by link instead.
    if (intent.status !== "succeeded") throw new CardRefused(`The card's bank wants the customer to confirm the charge (${intent.status}).`, true);
    return { id: intent.id, method: "card" };
  }

  async closePayment(sessionId: string): Promise<"closed" | "paid"> {
    try {
      await this.client.checkout.sessions.expire(sessionId, {}, { timeout: 15_000 });
      return "closed";
    } catch (error) {
      // Only open sessions can be expired: ask Stripe what became of this one.
      const session = await this.client.checkout.sessions.retrieve(sessionId, {}, { timeout: 15_000 });
      if (session.status === "expired") return "closed";
      if (session.status === "complete") return "paid";
      throw error;
    }
  }

  /** The verified event of a webhook request (throws on a bad signature or when no webhook secret is configured). */
  event(rawBody: Buffer, signature: string): Stripe.Event {
    if (!this.config.stripeWebhookSecret) throw new Error("STRIPE_WEBHOOK_SECRET is not configured.");
    return this.client.webhooks.constructEvent(rawBody, signature, this.config.stripeWebhookSecret);
  }
}
