// marketing.list_campaigns through real HTTP: newest first, status filter, limit, counts, scopes and bad input.
import { beforeAll, describe, expect, it } from "vitest";
import { expectOk, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { createCampaign, DEMO_AUDIENCE, DEMO_CAMPAIGNS, seedAudience } from "./fixtures.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["marketing:write"] } });
const ids: Record<string, string> = {};
beforeAll(async () => {
  await seedAudience(server);
  ids.draft = (await createCampaign(server, { createdAt: new Date("2026-01-01T10:00:00Z") })).id;
  ids.scheduled = (await createCampaign(server, { status: "scheduled", sendAt: new Date("2030-01-01T08:00:00Z"), audience: "customers", createdAt: new Date("2026-01-02T10:00:00Z") })).id;
  ids.sent = (await createCampaign(server, { status: "sent", sendAt: new Date("2026-01-03T08:00:00Z"), sentAt: new Date("2026-01-03T08:00:05Z"), recipientCount: 7, audience: "recent_customers", createdAt: new Date("2026-01-03T10:00:00Z") })).id;
});

type Row = { id: string; status: string; audience: string; sendAt: string | null; sentAt: string | null; recipientCount: number; audienceCount: number; body?: string };
const list = async (input: object) => expectOk<Row[]>(server, "marketing.list_campaigns", await server.call("marketing.list_campaigns", input, { key }));

describe("marketing.list_campaigns", () => {
  it("lists campaigns newest first with schedule, recipients and current audience size, without the body", async () => {
    const rows = await list({});
    expect(rows.map((row) => row.id)).toEqual([...DEMO_CAMPAIGNS, ids.sent, ids.scheduled, ids.draft]);
    expect(rows[0]).toMatchObject({ status: "draft", audience: "all_subscribers", audienceCount: 4 + DEMO_AUDIENCE.all_subscribers });
    expect(rows[1]).toMatchObject({ status: "sent", audience: "customers", recipientCount: 3, audienceCount: 2 + DEMO_AUDIENCE.customers });
    const [sent, scheduled, draft] = rows.slice(DEMO_CAMPAIGNS.length);
    expect(sent).toMatchObject({ status: "sent", audience: "recent_customers", sendAt: "2026-01-03T08:00:00.000Z", sentAt: "2026-01-03T08:00:05.000Z", recipientCount: 7, audienceCount: 1 + DEMO_AUDIENCE.recent_customers });
    expect(scheduled).toMatchObject({ status: "scheduled", sendAt: "2030-01-01T08:00:00.000Z", sentAt: null, recipientCount: 0, audienceCount: 2 + DEMO_AUDIENCE.customers });
    expect(draft).toMatchObject({ status: "draft", sendAt: null, audienceCount: 4 + DEMO_AUDIENCE.all_subscribers });
    expect(rows.every((row) => row.body === undefined)).toBe(true);
  });

  it("filters by status and honours the limit", async () => {
    expect((await list({ status: "scheduled" })).map((row) => row.id)).toEqual([ids.scheduled]);
    expect((await list({ status: "draft" })).map((row) => row.id)).toEqual([DEMO_CAMPAIGNS[0], ids.draft]);
    expect((await list({ status: "sent" })).map((row) => row.id)).toEqual([DEMO_CAMPAIGNS[1], ids.sent]);
    expect((await list({ limit: 1 })).map((row) => row.id)).toEqual([DEMO_CAMPAIGNS[0]]);
  });

  it("needs marketing:write", async () => {
    await expectScopeMatrix(server, "marketing.list_campaigns", {});
  });

  it("rejects bad input with a 400 problem", async () => {
    await expectRejected(server, "marketing.list_campaigns", key, [{ status: "archived" }, { limit: 0 }, { limit: 101 }, { limit: "5" }, { offset: 3 }]);
  });
});
