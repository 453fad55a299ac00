// Manual payment (bank transfer / invoice): the payment URL is the shop's own page with the instructions;
// staff marks the order paid with orders.update_status when the money has arrived.
import { paymentPageUrl, type PaymentOrder, type PaymentProvider, type PaymentSession } from "./provider.ts";

export class ManualPayments implements PaymentProvider {
  readonly name = "manual" as const;

  private readonly publicBaseUrl: string;
  private readonly secret: string;

  constructor(publicBaseUrl: string, secret: string) {
    this.publicBaseUrl = publicBaseUrl;
    this.secret = secret;
  }

  async createPayment(order: PaymentOrder): Promise<PaymentSession> {
    return { paymentUrl: this.pageUrl(order.id) };
  }

  pageUrl(orderId: string): string {
    return paymentPageUrl(this.publicBaseUrl, this.secret, orderId);
  }
}
