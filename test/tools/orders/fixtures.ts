// Test data for the order, customer and user suites: orders written straight to the database, and a capturing mailer.
import { afterEach, beforeAll } from "vitest";
import type { MailMessage, Mailer } from "../../../src/core/mail.ts";
import { ManualPayments } from "../../../src/tools/money/payments/manual.ts";
import type { PaymentProvider } from "../../../src/tools/money/payments/provider.ts";
import type { TestServer } from "../../support/server.ts";
import { newSession, sessionIdOf } from "../../support/session.ts";

export interface OrderSeed {
  status?: string;
  email?: string;
  userId?: string | null;
  createdAt?: Date;
  paidAt?: Date | null;
  /** Lines: quantity per line; the first uses a variant when `variant` is true. */
  quantities?: number[];
  variant?: boolean;
  shippingDkk?: number;
  discountDkk?: number;
  shippingAddress?: string;
}

let counter = 0;

/** Creates an order (with lines from demo products) and returns it with its items. */
export async function createOrder(server: TestServer, seed: OrderSeed = {}) {
  const prisma = server.prisma;
  const quantities = seed.quantities ?? [2, 1];
  // Gift-card products issue cards once paid: orders of plain goods leave them out.
  const products = await prisma.product.findMany({ where: { deletedAt: null, giftCard: false }, include: { variants: true }, orderBy: { slug: "asc" }, take: 20 });
  const withVariant = products.find((p) => p.variants.length > 0);
  const plain = products.filter((p) => p.id !== withVariant?.id);
  const lines = quantities.map((quantity, i) => {
    const variant = seed.variant && i === 0 ? withVariant?.variants[0] : undefined;
    const product = variant ? withVariant! : plain[i % plain.length]!;
    const unit = variant?.priceDkk ?? product.priceDkk;
    return {
      productId: product.id,
      productName: product.name,
      unitPriceDkk: unit,
      quantity,
      variantId: variant?.id ?? null,
      variantSku: variant?.sku ?? null,
      variantAttributes: variant ? (variant.attributes as Record<string, string>) : undefined,
    };
  });
  const subtotal = lines.reduce((sum, l) => sum + l.unitPriceDkk * BigInt(l.quantity), 0n);
  const shipping = BigInt(seed.shippingDkk ?? 4900);
  const discount = BigInt(seed.discountDkk ?? 0);
  const total = subtotal + shipping - discount;
  const status = seed.status ?? "paid";
  const paidAt = seed.paidAt !== undefined ? seed.paidAt : ["pending_payment", "pending", "flagged_review", "cancelled"].includes(status) ? null : new Date();
  counter += 1;
  return prisma.order.create({
    data: {
      email: seed.email ?? `kunde${counter}@example.dk`,
      userId: seed.userId ?? null,
      status,
      shippingName: "Mette Hansen",
      shippingAddress: seed.shippingAddress ?? `Testvej ${counter}`,
      shippingZip: "8000",
      shippingCity: "Aarhus C",
      phoneNumber: "+45 12 34 56 78",
      subtotalDkk: subtotal,
      shippingDkk: shipping,
      discountDkk: discount,
      totalDkk: total,
      vatOere: total / 5n,
      discountCode: discount > 0n ? "SOMMER10" : null,
      paidAt,
      ...(seed.createdAt && { createdAt: seed.createdAt }),
      items: { create: lines },
      // A paid order's ledger holds its payment, as if a bank transfer had been marked received.
      ...(paidAt && { payments: { create: [{ kind: "payment", method: "bank_transfer", amountDkk: total, actor: "system:test", createdAt: paidAt }] } }),
    },
    include: { items: true },
  });
}

export async function createCustomer(server: TestServer, data: { email: string; name?: string; phone?: string; createdAt?: Date }) {
  return server.prisma.customer.create({ data });
}

/** Replaces the server's mailer with one that records messages (or fails, when `fail` is set). */
export function captureMail(server: TestServer): { sent: MailMessage[]; fail: boolean } {
  const box = { sent: [] as MailMessage[], fail: false };
  const mailer: Mailer = {
    async send(message) {
      if (box.fail) throw new Error("SMTP server unreachable");
      box.sent.push(message);
      return { messageId: `<test-${box.sent.length}@example.dk>`, transport: "smtp" };
    },
    close() {},
  };
  server.runtime.collaborators.mailer = mailer;
  return box;
}

/** Everything an order write may touch, for "nothing written" checks. */
export async function orderState(server: TestServer, orderId: string) {
  const prisma = server.prisma;
  const [order, audits, changes, notes, stock, variants, ledger, giftCards, refundTasks] = await Promise.all([
    prisma.order.findUnique({ where: { id: orderId } }),
    prisma.auditEntry.count(),
    prisma.orderStatusChange.count(),
    prisma.orderNote.count(),
    prisma.product.aggregate({ _sum: { stock: true } }),
    prisma.productVariant.aggregate({ _sum: { stock: true } }),
    prisma.paymentEntry.count(),
    prisma.giftCard.aggregate({ _sum: { balanceDkk: true }, _count: true }),
    prisma.refundTask.count(),
  ]);
  return { order, audits, changes, notes, stock: stock._sum.stock, variants: variants._sum.stock, ledger, giftCards, refundTasks };
}

/** A storefront session cookie (POST /api/v1/session), bound to `customerId` when given, as a verified login leaves it. */
export async function sessionFor(server: TestServer, customerId: string | null): Promise<string> {
  const cookie = await newSession(server);
  if (customerId) {
    await server.prisma.storefrontSession.update({ where: { id: sessionIdOf(cookie) }, data: { customerId } });
  }
  return cookie;
}

/** Makes an order paid by card at Stripe: a PaymentIntent the Stripe fake at `stripeUrl` confirms with `paymentMethod`. */
export async function paidAtStripe(server: TestServer, stripeUrl: string, orderId: string, paymentMethod = "pm_card_visa"): Promise<string> {
  const order = await server.prisma.order.findUniqueOrThrow({ where: { id: orderId } });
  const response = await fetch(`${stripeUrl}/v1/payment_intents`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ amount: String(order.totalDkk), currency: "dkk", payment_method: paymentMethod, confirm: "true" }),
  });
  const intent = (await response.json()) as { id: string };
  await server.prisma.order.update({ where: { id: orderId }, data: { paymentProvider: "stripe", paymentMethod: "card", paymentProviderPaymentIntentId: intent.id } });
  await server.prisma.paymentEntry.updateMany({ where: { orderId }, data: { method: "card", reference: intent.id } });
  return intent.id;
}

/**
 * Lets a test pay by bank transfer instead of the shop's configured provider (which decides how unpaid orders pay);
 * the provider the server started with is back after each test. Call at the top of a test file.
 */
export function usePaymentProviders(server: TestServer): { useManualPayments: () => void } {
  let started: PaymentProvider;
  beforeAll(() => {
    started = server.runtime.collaborators.payments;
  });
  afterEach(() => {
    server.runtime.collaborators.payments = started;
  });
  return {
    useManualPayments: () => {
      server.runtime.collaborators.payments = new ManualPayments(server.runtime.config.publicBaseUrl, server.runtime.secret);
    },
  };
}
