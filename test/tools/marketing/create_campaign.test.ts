// marketing.create_campaign through real HTTP: a draft with audience sizes, the audit entry, scopes and bad input.
import { beforeAll, describe, expect, it } from "vitest";
import { expectOk, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { campaignState, DEMO_AUDIENCE, seedAudience } from "./fixtures.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["marketing:write"] } });
beforeAll(async () => {
  await seedAudience(server);
});

type Campaign = { id: string; name: string; subject: string; body: string; audience: string; status: string; sendAt: string | null; sentAt: string | null; recipientCount: number; audienceCount: number };
const create = async (input: object) => expectOk<Campaign>(server, "marketing.create_campaign", await server.call("marketing.create_campaign", input, { key }));
const valid = { name: "Vinterudsalg", subject: "Op til 40 % rabat", body: "Kære kunde,\n\nVores udsalg er i gang." };

describe("marketing.create_campaign", () => {
  it("creates a draft for all subscribers by default and audits it", async () => {
    const campaign = await create(valid);
    expect(campaign).toMatchObject({ ...valid, audience: "all_subscribers", status: "draft", sendAt: null, sentAt: null, recipientCount: 0, audienceCount: 4 + DEMO_AUDIENCE.all_subscribers });
    const row = await server.prisma.campaign.findUniqueOrThrow({ where: { id: campaign.id } });
    expect(row).toMatchObject({ ...valid, status: "draft" });
    const audit = await lastAudit(server);
    expect(audit).toMatchObject({ tool: "marketing.create_campaign", subjectType: "campaign", subjectId: campaign.id, before: null });
    expect(audit!.after).toMatchObject({ id: campaign.id, name: valid.name, status: "draft" });
  });

  it("counts each audience among active consenting subscribers only", async () => {
    expect((await create({ ...valid, audience: "customers" })).audienceCount).toBe(2 + DEMO_AUDIENCE.customers);
    expect((await create({ ...valid, audience: "recent_customers" })).audienceCount).toBe(1 + DEMO_AUDIENCE.recent_customers);
  });

  it("trims texts", async () => {
    expect(await create({ name: "  Navn ", subject: " Emne ", body: " Tekst ", audience: "customers" })).toMatchObject({ name: "Navn", subject: "Emne", body: "Tekst" });
  });

  it("needs marketing:write", async () => {
    await expectScopeMatrix(server, "marketing.create_campaign", valid);
  });

  it("rejects bad input with a 400 problem and writes nothing", async () => {
    await expectRejected(
      server,
      "marketing.create_campaign",
      key,
      [
        {},
        { ...valid, name: "" },
        { ...valid, subject: "   " },
        { ...valid, subject: "x".repeat(201) },
        { ...valid, body: 42 },
        { ...valid, audience: "everyone" },
        { ...valid, status: "sent" },
        { name: "Kun navn" },
      ],
      () => campaignState(server),
    );
  });
});
