// marketing.list_subscribers through real HTTP: newest first, active/unsubscribed/all, pagination, scopes and bad input.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectOk, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { startServer, type TestServer } from "../../support/server.ts";

let server: TestServer;
let key: string;
beforeAll(async () => {
  server = await startServer();
  key = await server.key("marketing:write");
  const db = server.runtime.database.prisma;
  const customer = await db.customer.create({ data: { email: "anna@example.dk" } });
  await db.subscriber.createMany({
    data: [
      { email: "anna@example.dk", consentAt: new Date("2025-01-01T10:00:00Z"), source: "checkout", customerId: customer.id, createdAt: new Date("2025-01-01T10:00:00Z") },
      { email: "bo@example.dk", consentAt: new Date("2025-02-01T10:00:00Z"), source: "chat", createdAt: new Date("2025-02-01T10:00:00Z") },
      { email: "carl@example.dk", consentAt: new Date("2025-03-01T10:00:00Z"), source: "storefront", createdAt: new Date("2025-03-01T10:00:00Z"), unsubscribedAt: new Date("2025-04-01T10:00:00Z") },
    ],
  });
});
afterAll(() => server.close());

type Row = { id: string; email: string; consentAt: string; source: string; customerId: string | null; createdAt: string; unsubscribedAt: string | null };
const list = async (input: object) => expectOk<Row[]>(server, "marketing.list_subscribers", await server.call("marketing.list_subscribers", input, { key }));

describe("marketing.list_subscribers", () => {
  it("lists active subscribers newest first with consent time, source and customer link", async () => {
    const rows = await list({});
    expect(rows.map((row) => row.email)).toEqual(["bo@example.dk", "anna@example.dk"]);
    expect(rows[1]).toMatchObject({ consentAt: "2025-01-01T10:00:00.000Z", source: "checkout", createdAt: "2025-01-01T10:00:00.000Z", unsubscribedAt: null });
    expect(rows[1]!.customerId).toEqual(expect.any(String));
    expect(rows[0]!.customerId).toBeNull();
  });

  it("shows unsubscribed or all subscribers and pages with limit and offset", async () => {
    expect(await list({ status: "unsubscribed" })).toEqual([expect.objectContaining({ email: "carl@example.dk", unsubscribedAt: "2025-04-01T10:00:00.000Z" })]);
    expect((await list({ status: "all" })).map((row) => row.email)).toEqual(["carl@example.dk", "bo@example.dk", "anna@example.dk"]);
    expect((await list({ status: "all", limit: 1, offset: 1 })).map((row) => row.email)).toEqual(["bo@example.dk"]);
    expect(await list({ offset: 100_000 })).toEqual([]);
  });

  it("needs marketing:write", async () => {
    await expectScopeMatrix(server, "marketing.list_subscribers", {});
  });

  it("rejects bad input with a 400 problem", async () => {
    await expectRejected(server, "marketing.list_subscribers", key, [
      { status: "bounced" },
      { limit: 0 },
      { limit: 101 },
      { offset: -1 },
      { offset: 100_001 },
      { email: "a@example.dk" },
    ]);
  });
});
