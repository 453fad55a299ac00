// giftcards.issue through real HTTP: a code of 16 unambiguous symbols, the balance, the e-mail, an audit entry without the code.
import { describe, expect, it } from "vitest";
import { expectOk, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { captureMail } from "../orders/fixtures.ts";

const { server, keys: { staff } } = useServer({ keys: { staff: ["giftcards:write"] } });
const issue = (input: object) => server.call("giftcards.issue", input, { key: staff });

describe("giftcards.issue", () => {
  it("issues a card valid three years, e-mails the code and keeps only its last four symbols in the audit log", async () => {
    const mail = captureMail(server);
    const card = expectOk<{ code: string; balanceDkk: number }>(server, "giftcards.issue", await issue({ amountDkk: 50000, customerEmail: "Mette@Example.dk", reason: "Undskyld" }));
    expect(card.code).toMatch(/^[A-HJ-NP-Z2-9]{4}(-[A-HJ-NP-Z2-9]{4}){3}$/);
    expect(card.balanceDkk).toBe(50000);
    const row = await server.prisma.giftCard.findUniqueOrThrow({ where: { code: card.code }, include: { movements: true } });
    expect(row).toMatchObject({ initialDkk: 50000n, source: "issued", customerEmail: "mette@example.dk", reason: "Undskyld", currency: "DKK" });
    const years = (row.expiresAt!.getTime() - row.createdAt.getTime()) / (365.25 * 24 * 3600 * 1000);
    expect(years).toBeCloseTo(3, 1);
    expect(row.movements.map((m) => m.amountDkk)).toEqual([50000n]);
    const audit = await lastAudit(server);
    expect(audit).toMatchObject({ tool: "giftcards.issue", subjectType: "giftcard", subjectId: row.id, note: "Undskyld" });
    expect(JSON.stringify(audit)).not.toContain(card.code);
    expect(JSON.stringify(audit)).toContain(card.code.slice(-4));
    await expect.poll(() => mail.sent.find((m) => m.to === "mette@example.dk")?.text ?? "").toContain(card.code);
    const sent = mail.sent.find((m) => m.to === "mette@example.dk")!;
    // Issue 39 item 10: the shop's name in the subject like the other mails, and no double full stop after "kr.".
    expect(sent.subject).toBe("Dit gavekort på 500,00 kr. – Nordlys Optik");
    expect(sent.text).toContain("Her er dit gavekort fra Nordlys Optik på 500,00 kr.\n");
    expect(sent.text).not.toContain("kr..");
  });

  it("gives every card its own code", async () => {
    const codes = new Set<string>();
    for (let i = 0; i < 10; i++) codes.add(expectOk<{ code: string }>(server, "giftcards.issue", await issue({ amountDkk: 100 })).code);
    expect(codes.size).toBe(10);
  });

  it("needs giftcards:write", async () => {
    await expectScopeMatrix(server, "giftcards.issue", { amountDkk: 1000 });
  });

  it("rejects bad input with a 400 problem and issues nothing", async () => {
    const cards = () => server.prisma.giftCard.count();
    await expectRejected(server, "giftcards.issue", staff, [{}, { amountDkk: 99 }, { amountDkk: 1.5 }, { amountDkk: "100" }, { amountDkk: 1000, customerEmail: "not-mail" }, { amountDkk: 1000, reason: "" }, { amountDkk: 1000, extra: true }], cards);
  });
});
