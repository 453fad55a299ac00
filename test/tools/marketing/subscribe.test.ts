// marketing.subscribe through real HTTP: explicit consent, lowercase e-mail, idempotent repeats, re-subscription, scopes, bad input.
import { describe, expect, it } from "vitest";
import { auditCount, expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["cart:write"] } });

type Result = { id: string; email: string; consentAt: string; source: string; alreadySubscribed: boolean };
const subscribe = async (input: object) => expectOk<Result>(server, "marketing.subscribe", await server.call("marketing.subscribe", input, { key }));
const db = () => server.prisma;

describe("marketing.subscribe", () => {
  it("records the consent time and source, stores the e-mail lowercase and audits the new subscriber", async () => {
    const before = Date.now();
    const result = await subscribe({ email: "Ny.Kunde@Example.DK", consent: true });
    expect(result).toMatchObject({ email: "ny.kunde@example.dk", source: "storefront", alreadySubscribed: false });
    expect(Date.parse(result.consentAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(result.consentAt)).toBeLessThanOrEqual(Date.now() + 1000);
    const row = await db().subscriber.findUniqueOrThrow({ where: { email: "ny.kunde@example.dk" } });
    expect(row).toMatchObject({ id: result.id, source: "storefront", unsubscribedAt: null, customerId: null });
    const audit = await lastAudit(server);
    expect(audit).toMatchObject({ tool: "marketing.subscribe", subjectType: "subscriber", subjectId: result.id, before: null });
    expect(audit!.after).toMatchObject({ email: "ny.kunde@example.dk", consentAt: result.consentAt });
  });

  it("is idempotent: a repeat returns the existing subscriber with alreadySubscribed and records an unchanged snapshot", async () => {
    const first = await subscribe({ email: "igen@example.dk", consent: true, source: "chat" });
    const audits = await auditCount(server);
    const again = await subscribe({ email: "IGEN@example.dk", consent: true, source: "checkout" });
    expect(again).toEqual({ ...first, alreadySubscribed: true });
    expect(await db().subscriber.count({ where: { email: "igen@example.dk" } })).toBe(1);
    expect(await auditCount(server)).toBe(audits + 1);
    const audit = await lastAudit(server);
    expect(audit).toMatchObject({ subjectType: "subscriber", subjectId: first.id });
    expect(audit!.after).toEqual(audit!.before);
  });

  it("subscribes again, with a new consent, an address that had unsubscribed", async () => {
    const old = await db().subscriber.create({ data: { email: "tilbage@example.dk", consentAt: new Date("2024-01-01T00:00:00Z"), source: "import", unsubscribedAt: new Date("2025-01-01T00:00:00Z") } });
    const result = await subscribe({ email: "tilbage@example.dk", consent: true, source: "chat" });
    expect(result).toMatchObject({ id: old.id, source: "chat", alreadySubscribed: false });
    expect(Date.parse(result.consentAt)).toBeGreaterThan(Date.parse("2025-06-01T00:00:00Z"));
    expect(await db().subscriber.findUniqueOrThrow({ where: { id: old.id } })).toMatchObject({ unsubscribedAt: null, source: "chat" });
    const audit = await lastAudit(server);
    expect(audit!.before).toMatchObject({ unsubscribedAt: "2025-01-01T00:00:00.000Z" });
    expect(audit!.after).toMatchObject({ unsubscribedAt: null });
  });

  it("links the subscriber to the customer with the same e-mail", async () => {
    const customer = await db().customer.create({ data: { email: "kendt@example.dk" } });
    const result = await subscribe({ email: "Kendt@example.dk", consent: true });
    expect((await db().subscriber.findUniqueOrThrow({ where: { id: result.id } })).customerId).toBe(customer.id);
  });

  it("refuses with 422 feature_disabled while the newsletter feature is off, writing nothing", async () => {
    await db().featureFlag.update({ where: { key: "newsletter" }, data: { enabled: false } });
    const state = { subscribers: await db().subscriber.count(), audit: await auditCount(server) };
    expectProblem(await server.call("marketing.subscribe", { email: "slukket@example.dk", consent: true }, { key }), 422, "feature_disabled");
    expect({ subscribers: await db().subscriber.count(), audit: await auditCount(server) }).toEqual(state);
    await db().featureFlag.update({ where: { key: "newsletter" }, data: { enabled: true } });
    expect((await subscribe({ email: "slukket@example.dk", consent: true })).alreadySubscribed).toBe(false);
  });

  it("needs cart:write", async () => {
    await expectScopeMatrix(server, "marketing.subscribe", { email: "matrix@example.dk", consent: true });
  });

  it("rejects input without explicit consent or with a bad e-mail, writing nothing", async () => {
    const state = async () => ({ subscribers: await db().subscriber.count(), audit: await auditCount(server) });
    await expectRejected(
      server,
      "marketing.subscribe",
      key,
      [
        { email: "a@example.dk" },
        { email: "a@example.dk", consent: false },
        { email: "a@example.dk", consent: "true" },
        { email: "not-an-email", consent: true },
        { email: `${"a".repeat(250)}@example.dk`, consent: true },
        { email: "a@example.dk", consent: true, source: "spam" },
        { email: "a@example.dk", consent: true, name: "A" },
      ],
      state,
    );
  });
});
