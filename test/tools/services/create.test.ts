// services.create through real HTTP: result shape, defaults, slug generation (Danish letters, collisions), 409, audit, scopes, bad input.
import { describe, expect, it } from "vitest";
import { slugify } from "../../../src/tools/services/offerings.ts";
import { auditCount, expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

type Created = { id: string; slug: string; status: string; publicUrl: string };

const { server, keys: { key } } = useServer({ keys: { key: ["pages:write"] } });

const create = async (input: object) => expectOk<Created>(server, "services.create", await server.call("services.create", input, { key }));

describe("services.create", () => {
  it("creates a published offering with every field and audits the full row", async () => {
    const input = {
      title: "Synstest for bilister",
      body: "Kørekortsynsprøve med attest.\n\nTag dine briller med.",
      slug: "synstest-bilister",
      shortDescription: "Attest til kørekortet.",
      priceString: "295 kr.",
      heroImage: "https://images.example.com/bil.jpg",
      features: ["Attest samme dag", "15 minutter"],
      showInNav: true,
      navOrder: -5,
    };
    const result = await create(input);
    expect(result).toEqual({
      id: expect.any(String),
      slug: "synstest-bilister",
      status: "published",
      publicUrl: `${server.runtime.config.publicBaseUrl}/services/synstest-bilister`,
    });
    const row = await server.prisma.serviceOffering.findUniqueOrThrow({ where: { slug: "synstest-bilister" } });
    expect(row).toMatchObject({ ...input, navOrder: -5n, status: "published", id: result.id });
    const audit = await lastAudit(server);
    expect(audit).toMatchObject({ tool: "services.create", subjectType: "serviceOffering", subjectId: result.id, before: null });
    expect(audit?.after).toMatchObject({ id: result.id, slug: "synstest-bilister", title: input.title, navOrder: -5, features: input.features, showInNav: true });
  });

  it("defaults to published, navOrder 0, showInNav false, and honours status draft", async () => {
    const plain = await create({ title: "Solbrilleslibning", body: "Vi sliber dine glas." });
    const row = await server.prisma.serviceOffering.findUniqueOrThrow({ where: { id: plain.id } });
    expect(row).toMatchObject({ status: "published", navOrder: 0n, showInNav: false, features: [], heroImage: null, priceString: null });
    const draft = await create({ title: "Hjemmebesøg", body: "Optikeren kommer hjem til dig.", status: "draft" });
    expect(draft.status).toBe("draft");
  });

  it("generates slugs from the title: Danish letters transliterated, other runs to hyphens", async () => {
    expect((await create({ title: "Øjenlåg & Ærlig Rådgivning!", body: "x" })).slug).toBe("oejenlaag-aerlig-raadgivning");
    expect((await create({ title: "  Ål i 3D — café  ", body: "x" })).slug).toBe("aal-i-3d-cafe");
  });

  it("appends -2, -3 … when the generated slug is taken", async () => {
    expect((await create({ title: "Synsprøve", body: "Endnu en synsprøve." })).slug).toBe("synsproeve-2");
    expect((await create({ title: "SYNSPRØVE", body: "Og en til." })).slug).toBe("synsproeve-3");
  });

  it("falls back to a valid slug when the title yields too little", async () => {
    expect((await create({ title: "!!!", body: "x" })).slug).toBe("service");
    expect((await create({ title: "€ ?", body: "x" })).slug).toBe("service-2");
  });

  it("slugify always yields a pattern-valid slug", () => {
    for (const title of ["Kontaktlinse-tilpasning", "ÆØÅ æøå", "a", "---", "Über Straße", "x".repeat(300), "Ny! 2025"]) {
      expect(slugify(title)).toMatch(/^[a-z0-9-]{2,80}$/);
      expect(slugify(title)).not.toMatch(/^-|-$/);
    }
    expect(slugify("ÆØÅ æøå")).toBe("aeoeaa-aeoeaa");
  });

  it("answers 409 for an explicit slug that is taken, writing nothing", async () => {
    const before = await auditCount(server);
    expectProblem(await server.call("services.create", { title: "Dublet", body: "x", slug: "synsproeve" }, { key }), 409, "conflict");
    expect(await auditCount(server)).toBe(before);
    expect(await server.prisma.serviceOffering.count({ where: { title: "Dublet" } })).toBe(0);
  });

  it("needs pages:write", async () => {
    await expectScopeMatrix(server, "services.create", { title: "Matrix-ydelse", body: "Til scope-testen." });
  });

  it("rejects bad input with 400 and writes nothing", async () => {
    const ok = { title: "God titel", body: "Tekst" };
    const count = () => server.prisma.serviceOffering.count();
    await expectRejected(
      server,
      "services.create",
      key,
      [
        {},
        { title: "God titel" },
        { body: "Tekst" },
        { ...ok, title: "a" },
        { ...ok, title: "x".repeat(201) },
        { ...ok, title: 42 },
        { ...ok, body: "" },
        { ...ok, slug: "Bad Slug" },
        { ...ok, slug: "a" },
        { ...ok, slug: "æble" },
        { ...ok, slug: "under_score" },
        { ...ok, shortDescription: "" },
        { ...ok, shortDescription: "x".repeat(501) },
        { ...ok, priceString: "" },
        { ...ok, priceString: "x".repeat(101) },
        { ...ok, priceString: 395 },
        { ...ok, heroImage: "not a url" },
        { ...ok, heroImage: "javascript:alert(1)" },
        { ...ok, heroImage: "ftp://example.com/a.jpg" },
        { ...ok, features: "Prøvelinser" },
        { ...ok, features: [1, 2] },
        { ...ok, features: [""] },
        { ...ok, showInNav: "yes" },
        { ...ok, navOrder: 1.5 },
        { ...ok, navOrder: 9007199254740992 },
        { ...ok, navOrder: -9007199254740992 },
        { ...ok, navOrder: "1" },
        { ...ok, status: "archived" },
        { ...ok, status: null },
        { ...ok, unknown: true },
        { ...ok, id: "abc" },
      ],
      async () => [await auditCount(server), await count()],
    );
  });
});
