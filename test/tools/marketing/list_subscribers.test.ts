// marketing.list_subscribers through real HTTP: newest first, active/unsubscribed/all, pagination, scopes and bad input,
// over the demo shop's subscribers (signed up in the last months) and three older ones written here.
import { beforeAll, describe, expect, it } from "vitest";
import { expectOk, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["marketing:write"] } });
/** The demo shop's subscribers, newest first. */
let demo: Array<{ email: string; unsubscribedAt: Date | null }>;
beforeAll(async () => {
  const db = server.prisma;
  demo = await db.subscriber.findMany({ orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
  expect(demo.length).toBeGreaterThan(0);
  const customer = await db.customer.create({ data: { email: "anna@example.dk" } });
  await db.subscriber.createMany({
    data: [
      { email: "anna@example.dk", consentAt: new Date("2025-01-01T10:00:00Z"), source: "checkout", customerId: customer.id, createdAt: new Date("2025-01-01T10:00:00Z") },
      { email: "bo@example.dk", consentAt: new Date("2025-02-01T10:00:00Z"), source: "chat", createdAt: new Date("2025-02-01T10:00:00Z") },
      { email: "carl@example.dk", consentAt: new Date("2025-03-01T10:00:00Z"), source: "storefront", createdAt: new Date("2025-03-01T10:00:00Z"), unsubscribedAt: new Date("2025-04-01T10:00:00Z") },
    ],
  });
});

type Row = { id: string; email: string; consentAt: string; source: string; customerId: string | null; createdAt: string; unsubscribedAt: string | null };
const list = async (input: object) => expectOk<Row[]>(server, "marketing.list_subscribers", await server.call("marketing.list_subscribers", input, { key }));

describe("marketing.list_subscribers", () => {
  it("lists active subscribers newest first with consent time, source and customer link", async () => {
    const rows = await list({});
    const demoActive = demo.filter((row) => row.unsubscribedAt === null).map((row) => row.email);
    expect(rows.map((row) => row.email)).toEqual([...demoActive, "bo@example.dk", "anna@example.dk"]);
    expect(rows.find((row) => row.email === "mette.hansen@example.dk")).toMatchObject({ source: "checkout", customerId: "demo-customer-mette" });
    expect(rows.at(-1)).toMatchObject({ consentAt: "2025-01-01T10:00:00.000Z", source: "checkout", createdAt: "2025-01-01T10:00:00.000Z", unsubscribedAt: null });
    expect(rows.at(-1)!.customerId).toEqual(expect.any(String));
    expect(rows.at(-2)!.customerId).toBeNull();
  });

  it("shows unsubscribed or all subscribers and pages with limit and offset", async () => {
    const demoGone = demo.filter((row) => row.unsubscribedAt !== null).map((row) => row.email);
    expect(demoGone).toEqual(["karin.dahl@example.dk"]);
    expect((await list({ status: "unsubscribed" })).map((row) => row.email)).toEqual([...demoGone, "carl@example.dk"]);
    expect((await list({ status: "unsubscribed" })).at(-1)).toMatchObject({ email: "carl@example.dk", unsubscribedAt: "2025-04-01T10:00:00.000Z" });
    const all = [...demo.map((row) => row.email), "carl@example.dk", "bo@example.dk", "anna@example.dk"];
    expect((await list({ status: "all" })).map((row) => row.email)).toEqual(all);
    expect((await list({ status: "all", limit: 1, offset: all.length - 2 })).map((row) => row.email)).toEqual(["bo@example.dk"]);
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
