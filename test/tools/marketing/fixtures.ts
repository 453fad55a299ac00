// Subscribers, orders and campaigns written straight into the test database for the marketing tests.
import type { TestServer } from "../../support/server.ts";

const DAY = 86_400_000;

/** Four active subscribers (two customers, one of them recent) and one who unsubscribed: audiences 4 / 2 / 1. */
export async function seedAudience(server: TestServer): Promise<void> {
  const db = server.runtime.database.prisma;
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
  return server.runtime.database.prisma.campaign.create({
    data: { name: "Test", subject: "Emne", body: "Brødtekst", ...data },
  });
}

export async function campaignState(server: TestServer) {
  const db = server.runtime.database.prisma;
  return { campaigns: await db.campaign.findMany({ orderBy: { id: "asc" } }), audit: await db.auditEntry.count() };
}
