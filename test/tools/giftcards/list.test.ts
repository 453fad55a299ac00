// giftcards.list through real HTTP: newest first, filtered by e-mail, source and balance; codes only by their last four
// symbols; staff only (a storefront session is refused), bad input.
import { describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { newSession } from "../../support/session.ts";

const { server, keys: { staff } } = useServer({ keys: { staff: ["giftcards:read", "giftcards:write"] } });
type Card = { id: string; code: string; balanceDkk: number; initialDkk: number; source: string; customerEmail: string | null; orderId: string | null; expiresAt: string | null; createdAt: string };

const list = async (input: object = {}) => expectOk<Card[]>(server, "giftcards.list", await server.call("giftcards.list", input, { key: staff }));
const issue = async (amountDkk: number, customerEmail?: string) =>
  expectOk<{ code: string }>(server, "giftcards.issue", await server.call("giftcards.issue", { amountDkk, ...(customerEmail ? { customerEmail } : {}) }, { key: staff })).code;

describe("giftcards.list", () => {
  it("lists cards newest first with the last four symbols of the code, never the whole code", async () => {
    const code = await issue(12300, "Liste.Kunde@example.dk");
    const cards = await list();
    expect(cards[0]).toEqual({
      id: expect.any(String), code: `…${code.slice(-4)}`, balanceDkk: 12300, initialDkk: 12300, source: "issued",
      customerEmail: "liste.kunde@example.dk", orderId: null, expiresAt: expect.stringMatching(/Z$/), createdAt: expect.stringMatching(/Z$/),
    });
    expect(cards).toContainEqual(expect.objectContaining({ id: "demo-giftcard", code: "…Z8WA", balanceDkk: 50000 }));
    const body = JSON.stringify(cards);
    expect(body).not.toContain(code);
    expect(body).not.toContain("KXRT-7M2Q-PB4N-Z8WA");
  });

  it("filters by customer e-mail (any case), source and what is left, up to limit", async () => {
    const first = await issue(5000, "filter@example.dk");
    const second = await issue(7000, "filter@example.dk");
    await server.prisma.giftCard.update({ where: { code: second }, data: { balanceDkk: 0n } });
    expect((await list({ customerEmail: "FILTER@example.dk" })).map((c) => c.code)).toEqual([`…${second.slice(-4)}`, `…${first.slice(-4)}`]);
    expect((await list({ customerEmail: "filter@example.dk", withBalance: true })).map((c) => c.code)).toEqual([`…${first.slice(-4)}`]);
    expect(await list({ source: "store_credit" })).toEqual([]);
    expect(await list({ limit: 1 })).toHaveLength(1);
  });

  it("needs giftcards:read, which no storefront session has", async () => {
    await expectScopeMatrix(server, "giftcards.list", {});
    expectProblem(await server.call("giftcards.list", {}, { cookie: await newSession(server) }), 403, "forbidden");
  });

  it("rejects bad input with a 400 problem", async () => {
    await expectRejected(server, "giftcards.list", staff, [{ limit: 0 }, { limit: 101 }, { source: "gift" }, { customerEmail: "nope" }, { withBalance: "yes" }, { code: "KXRT" }]);
  });
});
