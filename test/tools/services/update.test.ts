// services.update through real HTTP: patch semantics, status lifecycle, slug fixed, 404, audit before/after, scopes, bad input.
import { describe, expect, it } from "vitest";
import { auditCount, expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["pages:write"] } });

const row = (slug: string) => server.prisma.serviceOffering.findUniqueOrThrow({ where: { slug } });

describe("services.update", () => {
  it("changes only the patched fields and audits before and after", async () => {
    const before = await row("kontaktlinsetilpasning");
    const patch = { title: "Kontaktlinser", shortDescription: "Tilpasning og kontrol.", priceString: "Fra 450 kr.", body: "Ny tekst.", showInNav: true, navOrder: 9007199254740991 };
    const result = expectOk(server, "services.update", await server.call("services.update", { slug: "kontaktlinsetilpasning", patch }, { key }));
    expect(result).toEqual({ id: before.id, slug: "kontaktlinsetilpasning" });
    const after = await row("kontaktlinsetilpasning");
    expect(after).toMatchObject({ ...patch, navOrder: 9007199254740991n, features: before.features, status: "published", createdAt: before.createdAt });
    const audit = await lastAudit(server);
    expect(audit).toMatchObject({ tool: "services.update", subjectType: "serviceOffering", subjectId: before.id });
    expect(audit?.before).toMatchObject({ title: "Kontaktlinsetilpasning", priceString: "Fra 395 kr.", navOrder: 2 });
    expect(audit?.after).toMatchObject({ title: "Kontaktlinser", priceString: "Fra 450 kr.", navOrder: 9007199254740991 });
  });

  it("moves an offering between draft and published", async () => {
    expectOk(server, "services.update", await server.call("services.update", { slug: "brilleservice", patch: { status: "published" } }, { key }));
    expect((await row("brilleservice")).status).toBe("published");
    expectOk(server, "services.update", await server.call("services.update", { slug: "brilleservice", patch: { status: "draft" } }, { key }));
    expect((await row("brilleservice")).status).toBe("draft");
  });

  it("answers 404 for an unknown slug, writing nothing", async () => {
    const before = await auditCount(server);
    expectProblem(await server.call("services.update", { slug: "findes-ikke", patch: { title: "Ny titel" } }, { key }), 404, "not_found");
    expect(await auditCount(server)).toBe(before);
  });

  it("needs pages:write", async () => {
    await expectScopeMatrix(server, "services.update", { slug: "synsproeve", patch: { navOrder: 1 } });
  });

  it("rejects bad input, slug changes and unknown fields with 400", async () => {
    await expectRejected(
      server,
      "services.update",
      key,
      [
        {},
        { slug: "synsproeve" },
        { patch: { title: "Ny titel" } },
        { slug: "", patch: { title: "Ny titel" } },
        { slug: 12, patch: { title: "Ny titel" } },
        { slug: "synsproeve", patch: {} },
        { slug: "synsproeve", patch: "title" },
        { slug: "synsproeve", patch: { slug: "ny-slug" } },
        { slug: "synsproeve", patch: { heroImage: "https://example.com/a.jpg" } },
        { slug: "synsproeve", patch: { features: ["a"] } },
        { slug: "synsproeve", patch: { title: "a" } },
        { slug: "synsproeve", patch: { title: "x".repeat(201) } },
        { slug: "synsproeve", patch: { shortDescription: "x".repeat(501) } },
        { slug: "synsproeve", patch: { priceString: "" } },
        { slug: "synsproeve", patch: { priceString: "x".repeat(101) } },
        { slug: "synsproeve", patch: { body: "" } },
        { slug: "synsproeve", patch: { showInNav: 1 } },
        { slug: "synsproeve", patch: { navOrder: 0.5 } },
        { slug: "synsproeve", patch: { navOrder: 9007199254740992 } },
        { slug: "synsproeve", patch: { status: "hidden" } },
        { slug: "synsproeve", patch: { title: "Ny titel" }, extra: 1 },
      ],
      async () => [await auditCount(server), await row("synsproeve")],
    );
  });
});
