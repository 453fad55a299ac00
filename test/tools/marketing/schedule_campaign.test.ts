// marketing.schedule_campaign through real HTTP, and the draft → scheduled → sent lifecycle with dispatchDueCampaigns.
import { beforeAll, describe, expect, it } from "vitest";
import { dispatchDueCampaigns } from "../../../src/tools/marketing/campaigns.ts";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { campaignState, createCampaign, DEMO_AUDIENCE, seedAudience } from "./fixtures.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["marketing:write"] } });
beforeAll(async () => {
  await seedAudience(server);
});

type Campaign = { id: string; status: string; sendAt: string | null; sentAt: string | null; recipientCount: number; audienceCount: number };
const schedule = (input: object) => server.call("marketing.schedule_campaign", input, { key });
const ok = async (input: object) => expectOk<Campaign>(server, "marketing.schedule_campaign", await schedule(input));
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000);

describe("marketing.schedule_campaign", () => {
  it("schedules a draft, moves it, and unschedules it back to draft, auditing each step", async () => {
    const draft = await createCampaign(server);
    const first = inDays(2).toISOString();
    expect(await ok({ id: draft.id, sendAt: first })).toMatchObject({ id: draft.id, status: "scheduled", sendAt: first, sentAt: null, audienceCount: 4 + DEMO_AUDIENCE.all_subscribers });
    const audit = await lastAudit(server);
    expect(audit).toMatchObject({ tool: "marketing.schedule_campaign", subjectType: "campaign", subjectId: draft.id });
    expect(audit!.before).toMatchObject({ status: "draft", sendAt: null });
    expect(audit!.after).toMatchObject({ status: "scheduled", sendAt: first });

    const moved = await ok({ id: draft.id, sendAt: "2031-05-01T10:00:00+02:00" });
    expect(moved).toMatchObject({ status: "scheduled", sendAt: "2031-05-01T08:00:00.000Z" });
    expect(await ok({ id: draft.id, sendAt: null })).toMatchObject({ status: "draft", sendAt: null });
    expect(await ok({ id: draft.id, sendAt: null })).toMatchObject({ status: "draft", sendAt: null });
  });

  it("refuses a sendAt that is not in the future with 422 send_at_in_past", async () => {
    const draft = await createCampaign(server);
    const before = await campaignState(server);
    expectProblem(await schedule({ id: draft.id, sendAt: new Date(Date.now() - 60_000).toISOString() }), 422, "send_at_in_past");
    expectProblem(await schedule({ id: draft.id, sendAt: "2020-01-01T00:00:00Z" }), 422, "send_at_in_past");
    expect(await campaignState(server)).toEqual(before);
  });

  it("refuses to change a sent campaign with 422 campaign_already_sent", async () => {
    const sent = await createCampaign(server, { status: "sent", sendAt: new Date("2026-01-01T00:00:00Z"), sentAt: new Date("2026-01-01T00:00:00Z"), recipientCount: 3 });
    const before = await campaignState(server);
    expectProblem(await schedule({ id: sent.id, sendAt: inDays(1).toISOString() }), 422, "campaign_already_sent");
    expectProblem(await schedule({ id: sent.id, sendAt: null }), 422, "campaign_already_sent");
    expect(await campaignState(server)).toEqual(before);
  });

  it("answers 404 for an unknown campaign", async () => {
    expectProblem(await schedule({ id: "no-such-campaign", sendAt: null }), 404, "not_found");
  });

  it("needs marketing:write", async () => {
    const draft = await createCampaign(server);
    await expectScopeMatrix(server, "marketing.schedule_campaign", { id: draft.id, sendAt: inDays(3).toISOString() });
  });

  it("rejects bad input with a 400 problem and writes nothing", async () => {
    const draft = await createCampaign(server);
    await expectRejected(
      server,
      "marketing.schedule_campaign",
      key,
      [
        { id: draft.id },
        { id: draft.id, sendAt: "tomorrow" },
        { id: draft.id, sendAt: "2031-05-01" },
        { id: draft.id, sendAt: 1893456000000 },
        { sendAt: null },
        { id: draft.id, sendAt: null, status: "sent" },
      ],
      () => campaignState(server),
    );
  });
});

describe("dispatchDueCampaigns (the sent step)", () => {
  it("marks due scheduled campaigns as sent with the audience size, once, and leaves the rest alone", async () => {
    const db = server.prisma;
    await db.campaign.updateMany({ where: { status: "scheduled" }, data: { status: "draft", sendAt: null } });
    const now = new Date();
    const dueAll = await createCampaign(server, { status: "scheduled", sendAt: new Date(now.getTime() - 2 * 3_600_000) });
    const dueCustomers = await createCampaign(server, { status: "scheduled", sendAt: now, audience: "customers" });
    const later = await createCampaign(server, { status: "scheduled", sendAt: new Date(now.getTime() + 60_000) });
    const draft = await createCampaign(server);

    expect(await dispatchDueCampaigns(db, now)).toEqual([
      { id: dueAll.id, recipientCount: 4 + DEMO_AUDIENCE.all_subscribers },
      { id: dueCustomers.id, recipientCount: 2 + DEMO_AUDIENCE.customers },
    ]);
    expect(await db.campaign.findUniqueOrThrow({ where: { id: dueAll.id } })).toMatchObject({ status: "sent", sentAt: now, recipientCount: 4 + DEMO_AUDIENCE.all_subscribers });
    expect(await db.campaign.findUniqueOrThrow({ where: { id: later.id } })).toMatchObject({ status: "scheduled", sentAt: null, recipientCount: 0 });
    expect(await db.campaign.findUniqueOrThrow({ where: { id: draft.id } })).toMatchObject({ status: "draft", sentAt: null });
    expect(await dispatchDueCampaigns(db, now)).toEqual([]);
  });

  it("counts only subscribers who had consented by the time of sending", async () => {
    const db = server.prisma;
    const early = await createCampaign(server, { status: "scheduled", sendAt: new Date(Date.now() - 100 * 86_400_000) });
    // Two of the four active subscribers consented only five days ago, and the demo shop's within the last two months.
    expect(await dispatchDueCampaigns(db, new Date(Date.now() - 99 * 86_400_000))).toEqual([{ id: early.id, recipientCount: 2 }]);
  });

  it("runs the whole lifecycle through the tools: draft → scheduled → sent, then frozen", async () => {
    const created = expectOk<Campaign>(server, "marketing.create_campaign", await server.call("marketing.create_campaign", { name: "Forår", subject: "Nyt til foråret", body: "Se de nye stel.", audience: "recent_customers" }, { key }));
    const sendAt = inDays(1);
    await ok({ id: created.id, sendAt: sendAt.toISOString() });
    const dispatched = await dispatchDueCampaigns(server.prisma, new Date(sendAt.getTime() + 1000));
    expect(dispatched).toContainEqual({ id: created.id, recipientCount: 1 + DEMO_AUDIENCE.recent_customers });
    const listed = expectOk<Campaign[]>(server, "marketing.list_campaigns", await server.call("marketing.list_campaigns", { status: "sent" }, { key }));
    expect(listed.find((row) => row.id === created.id)).toMatchObject({ status: "sent", sentAt: new Date(sendAt.getTime() + 1000).toISOString(), recipientCount: 1 + DEMO_AUDIENCE.recent_customers });
    expectProblem(await schedule({ id: created.id, sendAt: null }), 422, "campaign_already_sent");
    expectProblem(await server.call("marketing.update_campaign", { id: created.id, patch: { name: "X" } }, { key }), 422, "campaign_not_draft");
  });
});
