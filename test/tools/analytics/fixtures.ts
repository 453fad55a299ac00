// Orders, customers and carts written straight into the test database with known timestamps, for exact analytics figures.
import type { TestServer } from "../../support/server.ts";

export interface OrderFixture {
  createdAt: string;
  totalDkk: number;
  status?: string;
  refundedDkk?: number;
  isAiGenerated?: boolean;
  aiAgentSource?: string;
  channel?: string;
  email?: string;
  items?: Array<{ productId: string; productName: string; unitPriceDkk: number; quantity: number }>;
}

export async function createOrder(server: TestServer, fixture: OrderFixture): Promise<string> {
  const order = await server.prisma.order.create({
    data: {
      email: fixture.email ?? "kunde@example.dk",
      status: fixture.status ?? "paid",
      shippingName: "Test Kunde",
      shippingAddress: "Testvej 1",
      shippingZip: "2100",
      shippingCity: "København Ø",
      subtotalDkk: BigInt(fixture.totalDkk),
      shippingDkk: 0n,
      discountDkk: 0n,
      totalDkk: BigInt(fixture.totalDkk),
      refundedDkk: BigInt(fixture.refundedDkk ?? 0),
      isAiGenerated: fixture.isAiGenerated ?? false,
      aiAgentSource: fixture.aiAgentSource ?? null,
      channel: fixture.channel ?? "web",
      createdAt: new Date(fixture.createdAt),
      items: { create: (fixture.items ?? []).map((item) => ({ ...item, unitPriceDkk: BigInt(item.unitPriceDkk) })) },
    },
  });
  return order.id;
}

export async function createOrders(server: TestServer, fixtures: OrderFixture[]): Promise<void> {
  for (const fixture of fixtures) await createOrder(server, fixture);
}
