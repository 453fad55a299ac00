// audit.list through real HTTP: newest first, every filter, summaries without snapshots, the revertible flag; the demo
// shop's own entry (SOMMER200 raised a week ago) is the oldest.
import { beforeAll, describe, expect, it } from "vitest";
import { expectOk, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { DEMO } from "../../../prisma/seed/history.ts";
import { useServer } from "../../support/server.ts";

type Summary = {
  id: string;
  tool: string;
  actor: string;
  door: string;
  subjectType: string | null;
  subjectId: string | null;
  createdAt: string;
  revertedAt: string | null;
  revertOfId: string | null;
  revertible: boolean;
};

const { server, keys: { key, writer } } = useServer({ keys: { key: ["audit:read"], writer: ["*"] } });
let writerActor: string;
beforeAll(async () => {
  writerActor = `key:${(await server.prisma.apiKey.findFirstOrThrow({ orderBy: { createdAt: "desc" } })).id}`;
  const call = async (name: string, input: object) => expectOk(server, name, await server.call(name, input, { key: writer }));
  await call("discounts.toggle", { code: "SOMMER200", active: false });
  await call("discounts.toggle", { code: "SOMMER200", active: true });
  await call("discounts.create", { code: "LISTE1", type: "fixed", value: 100 });
  await call("settings.set_feature", { key: "newsletter", enabled: false });
  const revertKey = await server.key("audit:revert");
  const created = await server.prisma.auditEntry.findFirstOrThrow({ where: { tool: "discounts.create" } });
  expectOk(server, "audit.revert", await server.call("audit.revert", { id: created.id }, { key: revertKey }));
});

const list = async (input: object) => expectOk<Summary[]>(server, "audit.list", await server.call("audit.list", input, { key }));

describe("audit.list", () => {
  it("lists summaries newest first, without snapshots", async () => {
    const entries = await list({});
    expect(entries.map((e) => e.tool)).toEqual(["audit.revert", "settings.set_feature", "discounts.create", "discounts.toggle", "discounts.toggle", "discounts.update"]);
    expect(entries.at(-1)).toMatchObject({ id: DEMO.auditEntry, actor: "system:demo", agent: null, subjectType: "discount" });
    expect(Object.keys(entries[0]!).sort()).toEqual(["actor", "agent", "createdAt", "door", "id", "revertOfId", "revertedAt", "revertible", "subjectId", "subjectType", "tool"]);
    const times = entries.map((e) => e.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    expect(entries[1]).toMatchObject({ actor: writerActor, door: "rest", agent: null, subjectType: "featureFlag", subjectId: "newsletter", revertible: true });
  });

  it("says what can be reverted: not reverted entries, not reverts, not entries changed later", async () => {
    const [revertEntry, feature, created, toggleOn, toggleOff, demo] = await list({});
    expect(revertEntry).toMatchObject({ revertOfId: created!.id, revertible: false });
    expect(created).toMatchObject({ revertedAt: expect.any(String), revertible: false });
    expect(feature!.revertible).toBe(true);
    expect(toggleOn!.revertible).toBe(true);
    expect(toggleOff!.revertible).toBe(false);
    expect(demo!.revertible).toBe(false); // the toggles above changed SOMMER200 after it
  });

  it("filters by tool, subject, actor and time window, and honours limit", async () => {
    expect((await list({ tool: "discounts.toggle" })).map((e) => e.tool)).toEqual(["discounts.toggle", "discounts.toggle"]);
    expect((await list({ subjectType: "featureFlag" })).map((e) => e.subjectId)).toEqual(["newsletter"]);
    const sommer = await server.prisma.discount.findUniqueOrThrow({ where: { code: "SOMMER200" } });
    expect((await list({ subjectType: "discount", subjectId: sommer.id })).map((e) => e.tool)).toEqual(["discounts.toggle", "discounts.toggle", "discounts.update"]);
    expect(await list({ actor: writerActor })).toHaveLength(4);
    expect(await list({ actor: "key:nobody" })).toEqual([]);
    expect(await list({ limit: 2 })).toHaveLength(2);
    const all = await list({});
    expect(await list({ fromDate: "2100-01-01T00:00:00Z" })).toEqual([]);
    expect(await list({ toDate: "2000-01-01T00:00:00Z" })).toEqual([]);
    const oldest = all[all.length - 1]!.createdAt;
    expect((await list({ fromDate: oldest, toDate: all[0]!.createdAt })).length).toBe(all.length);
    expect((await list({ toDate: oldest })).every((e) => e.createdAt <= oldest)).toBe(true);
  });

  it("needs audit:read", async () => {
    await expectScopeMatrix(server, "audit.list", {});
  });

  it("rejects bad input", async () => {
    await expectRejected(server, "audit.list", key, [
      { limit: 0 },
      { limit: 101 },
      { limit: 1.5 },
      { fromDate: "yesterday" },
      { toDate: 5 },
      { tool: "" },
      { subjectType: 3 },
      { before: true },
    ]);
  });
});
