// Subscribers, orders and campaigns written straight into the test database for the marketing tests.
import type { TestServer } from "../../support/server.ts";

const DAY = 86_400_000;

/**
 * The demo shop's own audience (prisma/seed/history.ts), on top of what a test adds: five active subscribers who consented
 * in the last two months, three of them (Mette, Sofie, Anne) with paid orders from the last four weeks; Karin unsubscribed.
 */
export const DEMO_AUDIENCE = { all_subscribers: 5, customers: 3, recent_customers: 3 } as const;

/** The demo shop's campaigns, newest first: the draft the tool examples edit, and an autumn newsletter sent 10 days ago. */
export const DEMO_CAMPAIGNS = ["demo-campaign", "demo-campaign-autumn"] as const;

/** Four active subscribers (two customers, one of them recent) and one who unsubscribed: audiences 4 / 2 / 1 more. */
export async function seedAudience(server: TestServer): Promise<void> {
  const db = server.prisma;
  const now = Date.now();
  await db.subscriber.createMany({
    data: [
      { email: "anna@example.dk", consentAt: new Date(now - 300 * DAY), source: "storefront" },
      { email: "bo@example.dk", consentAt: new Date(now - 300 * DAY), source: "checkout" },
      { email: "carl@example.dk", consentAt: new Date(now - 5 * DAY), source: "chat" },
      { email: "eva@example.dk", consentAt: new Date(now - 5 * DAY), source: "import" },
      { email: "dora@example.dk", consentAt: new Date(now - 300 * DAY), source: "storefront", unsubscribedAt: new Date(now - DAY) },
    ],
  });
  const order = (email: string, status: string, daysAgo: number) => ({
    email,
    status,
    shippingName: "Test",
    shippingAddress: "Testvej 1",
    shippingZip: "2100",
    shippingCity: "København Ø",
    subtotalDkk: 10000n,
    shippingDkk: 0n,
    discountDkk: 0n,
    totalDkk: 10000n,
    createdAt: new Date(now - daysAgo * DAY),
  });
  await db.order.createMany({
    data: [
      order("Anna@Example.dk", "paid", 10),
      order("bo@example.dk", "delivered", 200),
      order("dora@example.dk", "paid", 3),
      order("eva@example.dk", "cancelled", 3),
    ],
  });
}

export async function createCampaign(server: TestServer, data: { status?: string; sendAt?: Date; sentAt?: Date; recipientCount?: number; audience?: string; createdAt?: Date } = {}) {
  return server.prisma.campaign.create({
    data: { name: "Test", subject: "Emne", body: "Brødtekst", ...data },
  });
}

export async function campaignState(server: TestServer) {
  const db = server.prisma;
  return { campaigns: await db.campaign.findMany({ orderBy: { id: "asc" } }), audit: await db.auditEntry.count() };
}
