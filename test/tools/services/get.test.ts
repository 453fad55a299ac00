// services.get through real HTTP: every field (drafts too), 404, scopes, bad input.
import { describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["pages:read"] } });

describe("services.get", () => {
  it("returns one offering with every field", async () => {
    const row = await server.prisma.serviceOffering.findUniqueOrThrow({ where: { slug: "synsproeve" } });
    const result = expectOk(server, "services.get", await server.call("services.get", { slug: "synsproeve" }, { key }));
    expect(result).toEqual({
      id: row.id,
      slug: "synsproeve",
      title: "Synsprøve",
      body: "En grundig synsprøve hos en autoriseret optiker.",
      shortDescription: "Gratis synsprøve ved køb af briller.",
      priceString: "Gratis",
      heroImage: null,
      features: ["20 minutter", "Autoriseret optiker"],
      showInNav: true,
      navOrder: 1,
      status: "published",
      publicUrl: `${server.runtime.config.publicBaseUrl}/services/synsproeve`,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    });
  });

  it("includes drafts and hero images", async () => {
    const write = await server.key("pages:write");
    await server.call("services.create", { title: "Med billede", body: "x", heroImage: "https://example.com/h.jpg", status: "draft" }, { key: write });
    const result = expectOk<{ status: string; heroImage: string }>(server, "services.get", await server.call("services.get", { slug: "med-billede" }, { key }));
    expect(result).toMatchObject({ status: "draft", heroImage: "https://example.com/h.jpg" });
    expect(expectOk<{ status: string }>(server, "services.get", await server.call("services.get", { slug: "brilleservice" }, { key })).status).toBe("draft");
  });

  it("answers 404 for an unknown slug", async () => {
    expectProblem(await server.call("services.get", { slug: "findes-ikke" }, { key }), 404, "not_found");
  });

  it("needs pages:read", async () => {
    await expectScopeMatrix(server, "services.get", { slug: "synsproeve" });
  });

  it("rejects bad input with 400", async () => {
    await expectRejected(server, "services.get", key, [{}, { slug: "" }, { slug: 5 }, { slug: "x".repeat(201) }, { slug: "synsproeve", extra: true }]);
  });
});
