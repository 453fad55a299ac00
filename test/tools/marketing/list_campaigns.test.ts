// marketing.list_campaigns through real HTTP: newest first, status filter, limit, counts, scopes and bad input.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectOk, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { startServer, type TestServer } from "../../support/server.ts";
import { createCampaign, seedAudience } from "./fixtures.ts";

let server: TestServer;
let key: string;
const ids: Record<string, string> = {};
beforeAll(async () => {
  server = await startServer();
  key = await server.key("marketing:write");
  await seedAudience(server);
  ids.draft = (await createCampaign(server, { createdAt: new Date("2026-01-01T10:00:00Z") })).id;
  ids.scheduled = (await createCampaign(server, { status: "scheduled", sendAt: new Date("2030-01-01T08:00:00Z"), audience: "customers", createdAt: new Date("2026-01-02T10:00:00Z") })).id;
  ids.sent = (await createCampaign(server, { status: "sent", sendAt: new Date("2026-01-03T08:00:00Z"), sentAt: new Date("2026-01-03T08:00:05Z"), recipientCount: 7, audience: "recent_customers", createdAt: new Date("2026-01-03T10:00:00Z") })).id;
});
afterAll(() => server.close());

type Row = { id: string; status: string; audience: string; sendAt: string | null; sentAt: string | null; recipientCount: number; audienceCount: number; body?: string };
const list = async (input: object) => expectOk<Row[]>(server, "marketing.list_campaigns", await server.call("marketing.list_campaigns", input, { key }));

describe("marketing.list_campaigns", () => {
  it("lists campaigns newest first with schedule, recipients and current audience size, without the body", async () => {
    const rows = await list({});
    expect(rows.map((row) => row.id)).toEqual([ids.sent, ids.scheduled, ids.draft]);
    expect(rows[0]).toMatchObject({ status: "sent", audience: "recent_customers", sendAt: "2026-01-03T08:00:00.000Z", sentAt: "2026-01-03T08:00:05.000Z", recipientCount: 7, audienceCount: 1 });
    expect(rows[1]).toMatchObject({ status: "scheduled", sendAt: "2030-01-01T08:00:00.000Z", sentAt: null, recipientCount: 0, audienceCount: 2 });
    expect(rows[2]).toMatchObject({ status: "draft", sendAt: null, audienceCount: 4 });
    expect(rows.every((row) => row.body === undefined)).toBe(true);
  });

  it("filters by status and honours the limit", async () => {
    expect((await list({ status: "scheduled" })).map((row) => row.id)).toEqual([ids.scheduled]);
    expect((await list({ status: "draft" })).map((row) => row.id)).toEqual([ids.draft]);
    expect((await list({ limit: 1 })).map((row) => row.id)).toEqual([ids.sent]);
  });

  it("needs marketing:write", async () => {
    await expectScopeMatrix(server, "marketing.list_campaigns", {});
  });

  it("rejects bad input with a 400 problem", async () => {
    await expectRejected(server, "marketing.list_campaigns", key, [{ status: "archived" }, { limit: 0 }, { limit: 101 }, { limit: "5" }, { offset: 3 }]);
  });
});
