// giftcards.get through real HTTP: anyone holding a code sees its balance; typing mistakes in case and spacing do not matter.
import { describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server, keys: { staff } } = useServer({ keys: { staff: ["giftcards:write"] } });
type Card = { code: string; balanceDkk: number; currency: string; expiresAt: string | null };

describe("giftcards.get", () => {
  it("answers an anonymous holder with balance, currency and expiry, whatever the case and spacing typed", async () => {
    const { code } = expectOk<{ code: string }>(server, "giftcards.issue", await server.call("giftcards.issue", { amountDkk: 25000 }, { key: staff }));
    const typed = ` ${code.toLowerCase().replaceAll("-", " ")} `;
    const card = expectOk<Card>(server, "giftcards.get", await server.call("giftcards.get", { code: typed }));
    expect(card).toEqual({ code, balanceDkk: 25000, currency: "DKK", expiresAt: expect.stringMatching(/Z$/) });
    expect(new Date(card.expiresAt!).getTime()).toBeGreaterThan(Date.now() + 2.9 * 365 * 24 * 3600 * 1000);
  });

  it("answers 404 for a code no card has, and for one that cannot be a code", async () => {
    expectProblem(await server.call("giftcards.get", { code: "AAAA-BBBB-CCCC-DDDD" }), 404, "not_found");
    expectProblem(await server.call("giftcards.get", { code: "0000-1111-OOOO-IIII" }), 404, "not_found");
  });

  it("is open to everyone (the code is the secret)", async () => {
    const { code } = expectOk<{ code: string }>(server, "giftcards.issue", await server.call("giftcards.issue", { amountDkk: 1000 }, { key: staff }));
    await expectScopeMatrix(server, "giftcards.get", { code });
  });

  it("rejects bad input with a 400 problem", async () => {
    await expectRejected(server, "giftcards.get", undefined, [{}, { code: "" }, { code: "SHORT" }, { code: "x".repeat(41) }, { code: 5 }, { code: "AAAA-BBBB-CCCC-DDDD", x: 1 }]);
  });
});
