// marketing.update_campaign through real HTTP: edits drafts only, audits, 404, 422 campaign_not_draft, scopes and bad input.
import { describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { campaignState, createCampaign, DEMO_AUDIENCE } from "./fixtures.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["marketing:write"] } });

const update = (input: object) => server.call("marketing.update_campaign", input, { key });

describe("marketing.update_campaign", () => {
  it("changes the given fields of a draft and audits before and after", async () => {
    const draft = await createCampaign(server);
    const result = expectOk<Record<string, unknown>>(server, "marketing.update_campaign", await update({ id: draft.id, patch: { subject: "Nyt emne", audience: "customers" } }));
    expect(result).toMatchObject({ id: draft.id, name: "Test", subject: "Nyt emne", body: "Brødtekst", audience: "customers", status: "draft", audienceCount: DEMO_AUDIENCE.customers });
    const row = await server.prisma.campaign.findUniqueOrThrow({ where: { id: draft.id } });
    expect(row).toMatchObject({ subject: "Nyt emne", audience: "customers", name: "Test" });
    const audit = await lastAudit(server);
    expect(audit).toMatchObject({ tool: "marketing.update_campaign", subjectType: "campaign", subjectId: draft.id });
    expect(audit!.before).toMatchObject({ subject: "Emne", audience: "all_subscribers" });
    expect(audit!.after).toMatchObject({ subject: "Nyt emne", audience: "customers" });
  });

  it("refuses scheduled and sent campaigns with 422 campaign_not_draft, changing nothing", async () => {
    const scheduled = await createCampaign(server, { status: "scheduled", sendAt: new Date("2030-01-01T00:00:00Z") });
    const sent = await createCampaign(server, { status: "sent", sendAt: new Date("2026-01-01T00:00:00Z"), sentAt: new Date("2026-01-01T00:00:00Z") });
    const before = await campaignState(server);
    expectProblem(await update({ id: scheduled.id, patch: { name: "X" } }), 422, "campaign_not_draft");
    expectProblem(await update({ id: sent.id, patch: { body: "Y" } }), 422, "campaign_not_draft");
    expect(await campaignState(server)).toEqual(before);
  });

  it("answers 404 for an unknown campaign", async () => {
    expectProblem(await update({ id: "no-such-campaign", patch: { name: "X" } }), 404, "not_found");
  });

  it("needs marketing:write", async () => {
    const draft = await createCampaign(server);
    await expectScopeMatrix(server, "marketing.update_campaign", { id: draft.id, patch: { name: "Matrix" } });
  });

  it("rejects bad input with a 400 problem and writes nothing", async () => {
    const draft = await createCampaign(server);
    await expectRejected(
      server,
      "marketing.update_campaign",
      key,
      [
        { id: draft.id },
        { id: draft.id, patch: {} },
        { id: draft.id, patch: { name: "" } },
        { id: draft.id, patch: { audience: "all" } },
        { id: draft.id, patch: { status: "sent" } },
        { id: "", patch: { name: "X" } },
        { id: draft.id, patch: { name: "X" }, extra: 1 },
      ],
      () => campaignState(server),
    );
  });
});
