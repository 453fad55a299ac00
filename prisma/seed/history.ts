// The demo shop's history, with fixed ids (tool examples and the REST/MCP parity test name them): customers, four weeks
// of orders in every status (web, phone, e-mail, the storefront chat and MCP agents), their status histories,
// newsletter subscribers and campaigns, a bank-transfer refund to pay out, two storefront sessions with carts, one
// revertable audit entry, one revoked API key, two webhook endpoints (one disabled, with a dead delivery), support
// tickets, returns and an invited staff user.
import crypto from "node:crypto";
import { toJson, type JsonValue } from "../../src/core/json.ts";
import type { PrismaClient, ProductVariant } from "../../src/generated/prisma/client.ts";
import { vatOf } from "../../src/tools/orders/pricing.ts";
import { refundDeadline } from "../../src/tools/returns/deadlines.ts";
import { LINK_TTL_MS } from "../../src/tools/staff/links.ts";
import { hashToken } from "../../src/tools/staff/sessions.ts";

type Db = Pick<
  PrismaClient,
  "product" | "productVariant" | "discount" | "customer" | "order" | "orderStatusChange" | "subscriber" | "campaign" | "storefrontSession" | "cart" | "cartItem" | "auditEntry" | "apiKey" | "webhookEndpoint" | "outboxEvent" | "outboxAttempt" | "supportTicket" | "returnRequest" | "refundTask" | "adminUser" | "staffPasswordToken"
>;

const DAY = 24 * 3600_000;

/** Fixed ids the tool examples use. */
export const DEMO = {
  customer: "demo-customer-mette",
  customerEmail: "mette.hansen@example.dk",
  customerPhone: "+45 20 11 22 33",
  /** Mette's storefront session (cart with two lines and her address), for the cart.* and user.* examples. */
  session: "demo-session",
  cartLines: ["demo-cart-line-1", "demo-cart-line-2"],
  /** A second session whose cart the examples of cart.checkout and cart.clear may empty. */
  checkoutSession: "demo-session-checkout",
  campaign: "demo-campaign",
  auditEntry: "demo-audit-sommer200",
  /** A revoked API key of an old till integration (the keys.revoke and keys.set_scopes examples). */
  apiKey: "demo-api-key-kasse",
  /** The ERP's webhook endpoint, disabled after its receiver failed (webhooks.* examples), one dead delivery to it, and an unused endpoint. */
  webhook: "demo-webhook-erp",
  webhookDelivery: "demo-webhook-delivery",
  oldWebhook: "demo-webhook-old",
  /** The bank transfer owed back for the refunded demo order 5, still to be paid out (orders.complete_refund_task). */
  refundTask: "demo-refund-task",
  order: (n: number) => `demo-order-${String(n).padStart(2, "0")}`,
  /** The lines of the demo orders have fixed ids too: demo-order-03-line-1 … (the returns.* examples name them). */
  orderItem: (order: number, line: number) => `demo-order-${String(order).padStart(2, "0")}-line-${line}`,
  /** Returns: 1 and 3 requested (approve, reject), 2 approved and waiting for the parcel (receive). */
  return: (n: number) => `demo-return-${n}`,
  /**
   * A trainee invited to the admin who has not chosen a password yet, and the token of their invitation link (the
   * staff.set_password example). The token is public like the demo gift card's code, so the user may only read the
   * catalogue, which the storefront shows anyway.
   */
  invitedStaff: { id: "demo-staff-praktikant", email: "praktikant@nordlys.dk", token: "ZGVtbzogaW52aXRhdGlvbiBvZiB0aGUgdHJhaW5lZSE" },
} as const;

const CUSTOMERS = [
  { key: "mette", name: "Mette Hansen", phone: DEMO.customerPhone, address: "Strøget 12", zip: "1160", city: "København K" },
  { key: "jonas", name: "Jonas Nielsen", phone: "+45 31 22 33 44", address: "Nørregade 7", zip: "5000", city: "Odense C" },
  { key: "sofie", name: "Sofie Pedersen", phone: "+45 42 33 44 55", address: "Vestergade 3", zip: "8000", city: "Aarhus C" },
  { key: "lars", name: "Lars Andersen", phone: "+45 53 44 55 66", address: "Algade 21", zip: "9000", city: "Aalborg" },
  { key: "anne", name: "Anne Kristensen", phone: "+45 60 55 66 77", address: "Torvegade 4", zip: "6700", city: "Esbjerg" },
  { key: "mikkel", name: "Mikkel Larsen", phone: "+45 71 66 77 88", address: "Bredgade 30", zip: "7100", city: "Vejle" },
  { key: "ida", name: "Ida Jørgensen", phone: "+45 22 77 88 99", address: "Søndergade 10", zip: "8700", city: "Horsens" },
] as const;
type CustomerKey = (typeof CUSTOMERS)[number]["key"];

const emailOf = (key: CustomerKey) => `${CUSTOMERS.find((c) => c.key === key)!.name.toLowerCase().replace(/ø/g, "o").replace(" ", ".")}@example.dk`;

/** Each status's path from pending_payment along DESIGN.md's legal transitions. */
const PATHS: Record<string, string[]> = {
  pending_payment: ["pending_payment"],
  pending: ["pending_payment", "pending"],
  paid: ["pending_payment", "paid"],
  flagged_review: ["pending_payment", "flagged_review"],
  processing: ["pending_payment", "paid", "processing"],
  shipped: ["pending_payment", "paid", "processing", "shipped"],
  delivered: ["pending_payment", "paid", "processing", "shipped", "delivered"],
  completed: ["pending_payment", "paid", "processing", "shipped", "delivered", "completed"],
  cancelled: ["pending_payment", "cancelled"],
  refunded: ["pending_payment", "paid", "refunded"],
  partial_refund: ["pending_payment", "paid", "processing", "shipped", "delivered", "partial_refund"],
  disputed: ["pending_payment", "paid", "disputed"],
};

export interface DemoOrder {
  customer: CustomerKey;
  status: string;
  daysAgo: number;
  channel: "web" | "chat" | "mcp" | "phone" | "email";
  /** The AI agent that placed it (chat: the storefront assistant; mcp: the client's name). */
  agent?: string;
  /** [product index among the plain demo products, quantity] */
  lines: Array<[number, number]>;
  /** One more line of a product sold in variants: the variant's SKU (the orders.change_items example swaps it). */
  variantSku?: string;
  code?: "VELKOMMEN10";
}

export const DEMO_ORDERS: readonly DemoOrder[] = [
  { customer: "mette", status: "completed", daysAgo: 27, channel: "web", lines: [[0, 1], [5, 1]] },
  { customer: "jonas", status: "completed", daysAgo: 26, channel: "web", lines: [[1, 1]] },
  { customer: "sofie", status: "delivered", daysAgo: 24, channel: "chat", agent: "storefront-assistant", lines: [[2, 1], [9, 2]] },
  { customer: "lars", status: "completed", daysAgo: 23, channel: "phone", lines: [[3, 1]] },
  { customer: "anne", status: "refunded", daysAgo: 22, channel: "web", lines: [[4, 1]] },
  { customer: "mikkel", status: "delivered", daysAgo: 20, channel: "mcp", agent: "Claude Desktop", lines: [[6, 1]] },
  { customer: "ida", status: "completed", daysAgo: 19, channel: "web", lines: [[7, 1], [10, 1]], code: "VELKOMMEN10" },
  { customer: "mette", status: "delivered", daysAgo: 17, channel: "web", lines: [[8, 2]] },
  { customer: "jonas", status: "partial_refund", daysAgo: 16, channel: "web", lines: [[11, 1], [12, 1]] },
  { customer: "sofie", status: "shipped", daysAgo: 14, channel: "chat", agent: "storefront-assistant", lines: [[13, 1]] },
  { customer: "lars", status: "cancelled", daysAgo: 13, channel: "web", lines: [[14, 1]] },
  { customer: "anne", status: "disputed", daysAgo: 12, channel: "web", lines: [[15, 1]] },
  { customer: "mikkel", status: "shipped", daysAgo: 10, channel: "web", lines: [[16, 1], [2, 1]] },
  { customer: "ida", status: "processing", daysAgo: 8, channel: "mcp", agent: "shop-agent", lines: [[17, 1]] },
  { customer: "mette", status: "paid", daysAgo: 6, channel: "chat", agent: "storefront-assistant", lines: [[18, 1]] },
  { customer: "jonas", status: "paid", daysAgo: 5, channel: "web", lines: [[19, 1], [0, 1]], variantSku: "gucci-cat-eye-coast-57-s", code: "VELKOMMEN10" },
  { customer: "sofie", status: "processing", daysAgo: 4, channel: "web", lines: [[20, 1]] },
  { customer: "lars", status: "flagged_review", daysAgo: 3, channel: "mcp", agent: "Claude Desktop", lines: [[21, 3]] },
  { customer: "anne", status: "pending", daysAgo: 2, channel: "email", lines: [[22, 1]] },
  { customer: "mikkel", status: "pending_payment", daysAgo: 1, channel: "web", lines: [[23, 1]] },
  { customer: "ida", status: "pending_payment", daysAgo: 0.5, channel: "chat", agent: "storefront-assistant", lines: [[24, 1]] },
  { customer: "mette", status: "shipped", daysAgo: 3, channel: "web", lines: [[25, 1]] },
  { customer: "jonas", status: "delivered", daysAgo: 9, channel: "web", lines: [[26, 1]] },
  { customer: "anne", status: "completed", daysAgo: 15, channel: "web", lines: [[27, 2]] },
];

const SHIPPING_DKK = 4900n;
const FREE_FROM_DKK = 49900n;

/** The demo history, `now` being the seed time (orders fall in the four weeks before it). */
export async function seedHistory(db: Db, now = new Date()): Promise<void> {
  const at = (daysAgo: number, plusHours = 0) => new Date(now.getTime() - daysAgo * DAY + plusHours * 3600_000);
  const products = await db.product.findMany({ where: { deletedAt: null, variants: { none: {} }, stock: { gt: 0 } }, orderBy: { id: "asc" } });

  for (const [i, c] of CUSTOMERS.entries()) {
    await db.customer.create({
      data: {
        id: `demo-customer-${c.key}`,
        email: emailOf(c.key),
        name: c.name,
        phone: c.phone,
        createdAt: at(40 - i),
        // Their address book: the address their orders go to, as the default.
        addresses: { create: { id: `demo-address-${c.key}`, name: c.name, address: c.address, zip: c.zip, city: c.city, phone: c.phone, isDefault: true, createdAt: at(40 - i), lastUsedAt: at(40 - i) } },
      },
    });
  }

  const welcome = await db.discount.findUniqueOrThrow({ where: { code: "VELKOMMEN10" } });
  // Written oldest first: each takes the next order number as it is inserted, so #1001 is the oldest demo order.
  const oldestFirst = [...DEMO_ORDERS.entries()].sort(([, a], [, b]) => b.daysAgo - a.daysAgo);
  for (const [i, spec] of oldestFirst) {
    const id = DEMO.order(i + 1);
    const customer = CUSTOMERS.find((c) => c.key === spec.customer)!;
    const lines = spec.lines.map(([index, quantity]) => ({ product: products[index % products.length]!, variant: null as ProductVariant | null, quantity }));
    if (spec.variantSku) {
      const variant = await db.productVariant.findFirstOrThrow({ where: { sku: spec.variantSku }, include: { product: true } });
      lines.push({ product: variant.product, variant, quantity: 1 });
    }
    const unit = (line: (typeof lines)[number]) => line.variant?.priceDkk ?? line.product.priceDkk;
    const subtotal = lines.reduce((sum, line) => sum + unit(line) * BigInt(line.quantity), 0n);
    const discount = spec.code ? (subtotal * welcome.value + 50n) / 100n : 0n;
    const shipping = subtotal - discount >= FREE_FROM_DKK ? 0n : SHIPPING_DKK;
    const total = subtotal - discount + shipping;
    const path = PATHS[spec.status]!;
    const step = (n: number) => at(spec.daysAgo, n * 7); // each status change some hours after the previous one
    const reached = (status: string) => (path.includes(status) ? step(path.indexOf(status)) : null);
    const shippedAt = reached("shipped");
    const refunded = spec.status === "refunded" ? total : spec.status === "partial_refund" ? 10000n : 0n;
    await db.order.create({
      data: {
        id,
        userId: `demo-customer-${customer.key}`,
        email: emailOf(customer.key),
        status: spec.status,
        shippingName: customer.name,
        shippingAddress: customer.address,
        shippingZip: customer.zip,
        shippingCity: customer.city,
        phoneNumber: customer.phone,
        subtotalDkk: subtotal,
        shippingDkk: shipping,
        discountDkk: discount,
        totalDkk: total,
        vatOere: vatOf(total),
        refundedDkk: refunded,
        discountCode: spec.code ?? null,
        isAiGenerated: spec.agent !== undefined,
        aiAgentSource: spec.agent ?? null,
        channel: spec.channel,
        paymentProvider: spec.status === "disputed" ? "stripe" : "manual",
        paymentMethod: spec.status === "disputed" ? "card" : reached("paid") ? "bank_transfer" : null,
        paymentProviderPaymentIntentId: spec.status === "disputed" ? `pi_demo_${i + 1}` : null,
        paidAt: reached("paid"),
        confirmationEmailSentAt: reached("paid"),
        carrier: shippedAt ? "PostNord" : null,
        trackingNumber: shippedAt ? `00370712${String(i + 1).padStart(12, "0")}` : null,
        trackingUrl: shippedAt ? `https://tracking.postnord.com/dk/?id=00370712${String(i + 1).padStart(12, "0")}` : null,
        estDeliveryFrom: shippedAt ? new Date(shippedAt.getTime() + DAY) : null,
        estDeliveryTo: shippedAt ? new Date(shippedAt.getTime() + 3 * DAY) : null,
        refundedAt: refunded > 0n ? step(path.length - 1) : null,
        disputedAt: reached("disputed"),
        cancelledAt: reached("cancelled"),
        cancelReason: spec.status === "cancelled" ? "Kunden fortrød købet" : null,
        createdAt: step(0),
        items: {
          // Fixed line ids, so tool examples can name a line.
          create: lines.map((line, n) => ({
            id: `${id}-line-${n + 1}`,
            productId: line.product.id,
            productName: line.product.name,
            unitPriceDkk: unit(line),
            quantity: line.quantity,
            ...(line.variant ? { variantId: line.variant.id, variantSku: line.variant.sku, variantAttributes: line.variant.attributes as Record<string, string> } : {}),
          })),
        },
        payments: {
          create: [
            ...(reached("paid") ? [{ kind: "payment", method: spec.status === "disputed" ? "card" : "bank_transfer", amountDkk: total, reference: spec.status === "disputed" ? `pi_demo_${i + 1}` : null, actor: "system:demo", createdAt: reached("paid")! }] : []),
            ...(refunded > 0n ? [{ kind: "refund", method: "bank_transfer", amountDkk: refunded, actor: "system:demo", createdAt: step(path.length - 1) }] : []),
          ],
        },
      },
    });
    await db.orderStatusChange.createMany({
      data: path.map((status, n) => ({
        orderId: id,
        fromStatus: n === 0 ? null : path[n - 1]!,
        toStatus: status,
        actor: "system:demo",
        reason: n === 0 ? "Order placed" : null,
        createdAt: step(n),
      })),
    });
  }
  await db.discount.update({ where: { id: welcome.id }, data: { usageCount: BigInt(DEMO_ORDERS.filter((o) => o.code).length) } });
  const refunded = await db.order.findUniqueOrThrow({ where: { id: DEMO.order(5) }, select: { refundedDkk: true, refundedAt: true } });
  await db.refundTask.create({ data: { id: DEMO.refundTask, orderId: DEMO.order(5), amountDkk: refunded.refundedDkk, account: "Reg.nr. 1551, kontonr. 3456789012", createdAt: refunded.refundedAt! } });

  const subscribers = [
    { key: "mette", email: emailOf("mette"), daysAgo: 27, source: "checkout", customerId: "demo-customer-mette" },
    { key: "sofie", email: emailOf("sofie"), daysAgo: 24, source: "chat", customerId: "demo-customer-sofie" },
    { key: "anne", email: emailOf("anne"), daysAgo: 30, source: "storefront", customerId: "demo-customer-anne" },
    { key: "hanne", email: "hanne.berg@example.dk", daysAgo: 33, source: "storefront", customerId: null },
    { key: "peter", email: "peter.holm@example.dk", daysAgo: 60, source: "import", customerId: null },
    { key: "karin", email: "karin.dahl@example.dk", daysAgo: 50, source: "storefront", customerId: null, unsubscribedDaysAgo: 11 },
  ];
  // Two open support tickets, as the storefront assistant hands shoppers over (the support.* examples use them).
  await db.supportTicket.create({
    data: {
      id: "demo-ticket-1",
      subject: "Forkert farve leveret",
      email: emailOf("sofie"),
      customerId: "demo-customer-sofie",
      orderId: DEMO.order(3),
      openedBy: "system:demo",
      createdAt: at(1),
      updatedAt: at(1),
      messages: { create: { from: "shopper", author: "system:demo", body: "Jeg fik de sorte stel, men bestilte de brune. Kan I bytte dem?", createdAt: at(1) } },
    },
  });
  await db.supportTicket.create({
    data: {
      id: "demo-ticket-2",
      subject: "Hvornår kommer min pakke?",
      email: emailOf("mikkel"),
      customerId: "demo-customer-mikkel",
      openedBy: "system:demo",
      createdAt: at(0.5),
      updatedAt: at(0.5),
      messages: { create: { from: "shopper", author: "system:demo", body: "Jeg bestilte i går. Hvornår kan jeg forvente pakken?", createdAt: at(0.5) } },
    },
  });
  // Three returns: a withdrawal waiting for approval, a complaint approved two days ago (the parcel is on its way back)
  // and a complaint staff are about to refuse. The returns.* examples approve, receive and reject them.
  const returns = [
    { n: 1, order: 23, kind: "withdrawal", reason: "Stellet passede ikke til mit ansigt.", daysAgo: 1, approvedDaysAgo: null },
    { n: 2, order: 3, kind: "complaint", reason: "Forkert farve leveret: sorte stel i stedet for brune.", daysAgo: 3, approvedDaysAgo: 2 },
    { n: 3, order: 6, kind: "complaint", reason: "Hængslet er knækket.", daysAgo: 2, approvedDaysAgo: null },
  ] as const;
  for (const r of returns) {
    const approvedAt = r.approvedDaysAgo === null ? null : at(r.approvedDaysAgo);
    await db.returnRequest.create({
      data: {
        id: DEMO.return(r.n),
        orderId: DEMO.order(r.order),
        kind: r.kind,
        status: approvedAt ? "approved" : "requested",
        reason: r.reason,
        requestedBy: "system:demo",
        createdAt: at(r.daysAgo),
        updatedAt: approvedAt ?? at(r.daysAgo),
        approvedAt,
        refundDueBy: approvedAt && refundDeadline(approvedAt),
        items: { create: { orderItemId: DEMO.orderItem(r.order, 1), quantity: 1 } },
      },
    });
  }
  await db.subscriber.createMany({
    data: subscribers.map((s) => ({
      id: `demo-subscriber-${s.key}`,
      email: s.email,
      consentAt: at(s.daysAgo),
      source: s.source,
      customerId: s.customerId,
      createdAt: at(s.daysAgo),
      unsubscribedAt: s.unsubscribedDaysAgo === undefined ? null : at(s.unsubscribedDaysAgo),
    })),
  });
  await db.campaign.createMany({
    data: [
      {
        id: DEMO.campaign,
        name: "Vinterudsalg",
        subject: "Vinterudsalg: op til 40 % på solbriller",
        body: "Kære kunde,\n\nVores vinterudsalg starter snart, med op til 40 % på udvalgte solbriller.\n\nVenlig hilsen Nordlys Optik",
        audience: "all_subscribers",
        createdAt: at(2),
      },
      {
        id: "demo-campaign-autumn",
        name: "Efterårsnyheder",
        subject: "Nye stel til efteråret",
        body: "Kære kunde,\n\nSe vores nye stel i varme efterårsfarver.\n\nVenlig hilsen Nordlys Optik",
        audience: "customers",
        status: "sent",
        sendAt: at(10),
        sentAt: at(10),
        recipientCount: 3,
        createdAt: at(12),
      },
    ],
  });

  const mette = CUSTOMERS[0];
  const shipping = { name: mette.name, address: mette.address, zip: mette.zip, city: mette.city, email: emailOf("mette"), phone: mette.phone };
  for (const [sessionId, cartId, lineIds, customerId] of [
    [DEMO.session, "demo-cart", DEMO.cartLines, "demo-customer-mette"],
    [DEMO.checkoutSession, "demo-cart-checkout", ["demo-cart-checkout-line-1"], null],
  ] as const) {
    await db.storefrontSession.create({ data: { id: sessionId, customerId, createdAt: at(2), lastSeenAt: at(1.5) } });
    await db.cart.create({ data: { id: cartId, sessionId, shipping, createdAt: at(2), updatedAt: at(1.5) } });
    for (const [n, lineId] of lineIds.entries()) {
      const product = products[30 + n]!;
      await db.cartItem.create({ data: { id: lineId, cartId, lineKey: `${product.id}:`, productId: product.id, quantity: 1, createdAt: at(2, n), updatedAt: at(1.5) } });
    }
  }

  // The old till's key, revoked a month ago. Its hash is of no key at all, so it never authenticated anything.
  await db.apiKey.create({
    data: {
      id: DEMO.apiKey,
      name: "Gammel kasseintegration",
      prefix: "demo0000",
      hash: crypto.createHash("sha256").update("demo: a revoked key without a secret").digest("hex"),
      scopes: ["orders:read", "catalog:read"],
      createdAt: at(60),
      lastUsedAt: at(31),
      revokedAt: at(30),
    },
  });

  // The ERP's webhook receiver stopped answering: its endpoint was disabled after repeated failure, one delivery is dead.
  // Secrets are fixed demo values (no receiver holds them); .invalid hosts never resolve, so nothing is ever sent.
  await db.webhookEndpoint.create({
    data: {
      id: DEMO.webhook,
      url: "https://erp.nordlys-optik.invalid/hooks/shop",
      events: ["order.created", "order.paid", "order.shipped"],
      secret: `whsec_${Buffer.from("demo: the ERP's webhook secret!!").toString("base64")}`,
      failureStreak: 5,
      disabledAt: at(3),
      disabledReason: "5 events in a row were not delivered after every retry.",
      createdAt: at(45),
    },
  });
  await db.webhookEndpoint.create({
    data: { id: DEMO.oldWebhook, url: "https://lager.nordlys-optik.invalid/webhook", events: ["stock.low"], secret: `whsec_${Buffer.from("demo: the old stock hook secret").toString("base64")}`, createdAt: at(90) },
  });
  const body = JSON.stringify({ type: "order.paid", timestamp: at(4).toISOString(), data: { id: DEMO.order(1) } });
  await db.outboxEvent.create({
    data: {
      id: DEMO.webhookDelivery,
      type: "order.paid",
      url: "https://erp.nordlys-optik.invalid/hooks/shop",
      body,
      signer: "standard-webhooks",
      keyRef: `webhook-endpoint:${DEMO.webhook}`,
      endpointId: DEMO.webhook,
      receiver: `endpoint:${DEMO.webhook}`,
      status: "dead",
      attempts: 1,
      maxAttempts: 1,
      nextAttemptAt: at(4),
      retryUntil: at(4),
      lastError: "getaddrinfo ENOTFOUND erp.nordlys-optik.invalid",
      createdAt: at(4),
      tries: { create: [{ number: 1, startedAt: at(4), durationMs: 12, statusCode: null, error: "getaddrinfo ENOTFOUND erp.nordlys-optik.invalid", ok: false }] },
    },
  });

  const invited = DEMO.invitedStaff;
  await db.adminUser.create({ data: { id: invited.id, email: invited.email, passwordHash: null, scopes: ["catalog:read"], createdAt: at(1) } });
  await db.staffPasswordToken.create({
    data: { staffId: invited.id, tokenHash: hashToken(invited.token), purpose: "invite", createdAt: at(1), expiresAt: new Date(at(1).getTime() + LINK_TTL_MS.invite) },
  });

  // Staff raised SOMMER200 from 150 to 200 kr. a week ago: an audit entry audit.revert can undo.
  const sommer = await db.discount.findUniqueOrThrow({ where: { code: "SOMMER200" } });
  const after = toJson(sommer) as Record<string, JsonValue>;
  await db.auditEntry.create({
    data: {
      id: DEMO.auditEntry,
      tool: "discounts.update",
      actor: "system:demo",
      door: "rest",
      subjectType: "discount",
      subjectId: sommer.id,
      before: { ...after, value: 15000 },
      after,
      createdAt: at(7),
    },
  });
}
