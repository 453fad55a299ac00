// The retention pass: what the shop keeps about visitors, and that it deletes the rest and nothing else.
import { describe, expect, it } from "vitest";
import { useServer } from "../../support/server.ts";
import { plainProducts, sessionIdOf } from "../../support/session.ts";
import { pruneVisitorData } from "../../../src/tools/user/retention.ts";
import { createCustomer, createOrder, sessionFor } from "../orders/fixtures.ts";

const { server } = useServer();

const DAY = 24 * 3600_000;
const ago = (ms: number) => new Date(Date.now() - ms);

async function lastSeen(cookie: string, at: Date): Promise<string> {
  const id = sessionIdOf(cookie);
  await server.prisma.storefrontSession.update({ where: { id }, data: { lastSeenAt: at } });
  return id;
}

async function chat(sessionId: string | null, updatedAt: Date): Promise<string> {
  const row = await server.prisma.chat.create({
    data: { assistant: sessionId ? "storefront" : "admin", owner: sessionId ? `session:${sessionId}` : "staff:x", clientId: crypto.randomUUID(), sessionId },
  });
  await server.prisma.chatMessage.create({ data: { chatId: row.id, messageId: "m1", position: 0, role: "user", parts: [{ type: "text", text: "Hej" }] } });
  await server.database.query(`UPDATE "Chat" SET "updatedAt" = $1 WHERE id = $2`, [updatedAt, row.id]);
  return row.id;
}

describe("the retention pass", () => {
  it("deletes an anonymous visitor's session, cart, chat and codes 90 days after the last visit, and keeps a recent one", async () => {
    const [product] = await plainProducts(server);
    const old = await sessionFor(server, null);
    const recent = await sessionFor(server, null);
    for (const cookie of [old, recent]) expect((await server.call("cart.add", { productSlug: product!.slug }, { cookie })).status).toBe(200);
    const oldId = await lastSeen(old, ago(91 * DAY));
    const recentId = await lastSeen(recent, ago(89 * DAY));
    const oldChat = await chat(oldId, ago(91 * DAY));
    await server.prisma.loginCode.create({ data: { sessionId: oldId, email: "gammel@example.dk", codeHash: "x", expiresAt: ago(91 * DAY) } });

    const gone = await pruneVisitorData(server.database);

    expect(gone.sessions).toBeGreaterThanOrEqual(1);
    expect(await server.prisma.storefrontSession.findUnique({ where: { id: oldId } })).toBeNull();
    expect(await server.prisma.cart.findUnique({ where: { sessionId: oldId } })).toBeNull();
    expect(await server.prisma.chat.findUnique({ where: { id: oldChat } })).toBeNull();
    expect(await server.prisma.chatMessage.count({ where: { chatId: oldChat } })).toBe(0);
    expect(await server.prisma.loginCode.count({ where: { sessionId: oldId } })).toBe(0);
    const kept = await server.prisma.storefrontSession.findUnique({ where: { id: recentId }, include: { cart: { include: { items: true } } } });
    expect(kept?.cart?.items).toHaveLength(1);

    // The visitor who comes back with the old cookie starts afresh: the cart page answers, with an empty cart.
    const page = await fetch(`${server.url}/cart`, { headers: { cookie: old } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Din kurv er tom");
  });

  it("keeps a signed-in session for the cookie's year, then deletes it and leaves the customer and orders", async () => {
    const customer = await createCustomer(server, { email: "trofast@example.dk" });
    const order = await createOrder(server, { userId: customer.id });
    const halfYear = await lastSeen(await sessionFor(server, customer.id), ago(200 * DAY));
    const overYear = await lastSeen(await sessionFor(server, customer.id), ago(366 * DAY));

    await pruneVisitorData(server.database);

    expect(await server.prisma.storefrontSession.findUnique({ where: { id: halfYear } })).not.toBeNull();
    expect(await server.prisma.storefrontSession.findUnique({ where: { id: overYear } })).toBeNull();
    expect(await server.prisma.customer.findUnique({ where: { id: customer.id } })).not.toBeNull();
    expect(await server.prisma.order.findUnique({ where: { id: order.id } })).not.toBeNull();
  });

  it("deletes sign-in codes an hour after they expire, old chats and stale throttles, in batches", async () => {
    const sessionId = sessionIdOf(await sessionFor(server, null));
    const codes = (expiresAt: Date, n: number, email: string) =>
      server.prisma.loginCode.createMany({ data: Array.from({ length: n }, () => ({ sessionId, email, codeHash: "x", expiresAt })) });
    await codes(ago(2 * 3600_000), 4_500, "udloebet@example.dk");
    await codes(ago(30 * 60_000), 1, "lige-udloebet@example.dk");
    await codes(new Date(Date.now() + 10 * 60_000), 1, "gyldig@example.dk");
    const staleChat = await chat(null, ago(366 * DAY));
    const liveChat = await chat(null, ago(10 * DAY));
    await server.prisma.loginThrottle.createMany({
      data: [
        { bucket: "retention:old", attempts: 3, windowStart: ago(2 * DAY) },
        { bucket: "retention:now", attempts: 3, windowStart: new Date() },
      ],
    });

    const gone = await pruneVisitorData(server.database);

    expect(gone.loginCodes).toBeGreaterThanOrEqual(4_500);
    expect(await server.prisma.loginCode.count({ where: { email: "udloebet@example.dk" } })).toBe(0);
    expect(await server.prisma.loginCode.count({ where: { email: { in: ["lige-udloebet@example.dk", "gyldig@example.dk"] } } })).toBe(2);
    expect(await server.prisma.chat.findUnique({ where: { id: staleChat } })).toBeNull();
    expect(await server.prisma.chat.findUnique({ where: { id: liveChat } })).not.toBeNull();
    expect((await server.prisma.loginThrottle.findMany({ where: { bucket: { startsWith: "retention:" } } })).map((row) => row.bucket)).toEqual(["retention:now"]);

    // A second pass finds nothing more to do.
    expect(await pruneVisitorData(server.database)).toEqual({ loginCodes: 0, sessions: 0, chats: 0, throttles: 0 });
  });
});
