// pages.get through real HTTP: body, status, timestamps and hasLayout; drafts too; 404, scopes, bad input.
import { describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

type Detail = { hasLayout: boolean; status: string; body: string };

const { server, keys: { key } } = useServer({ keys: { key: ["pages:read"] } });

const get = async (slug: string) => expectOk<Detail>(server, "pages.get", await server.call("pages.get", { slug }, { key }));

describe("pages.get", () => {
  it("returns the page with body, status, timestamps and hasLayout", async () => {
    const row = await server.prisma.page.findUniqueOrThrow({ where: { slug: "om-os" } });
    expect(await get("om-os")).toEqual({
      id: row.id,
      slug: "om-os",
      title: "Om Nordlys Optik",
      body: row.body,
      status: "published",
      hasLayout: false,
      publicUrl: `${server.runtime.config.publicBaseUrl}/info/om-os`,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    });
    expect((await get("vinterudsalg")).status).toBe("draft");
  });

  it("reports hasLayout once a layout is set, and false again when it is cleared", async () => {
    const write = await server.key("pages:write");
    const layout = { sections: [{ id: "h", type: "hero", props: { heading: "Velkommen" } }] };
    expectOk(server, "pages.set_layout", await server.call("pages.set_layout", { slug: "returret", layout }, { key: write }));
    expect((await get("returret")).hasLayout).toBe(true);
    expectOk(server, "pages.set_layout", await server.call("pages.set_layout", { slug: "returret", layout: null }, { key: write }));
    expect((await get("returret")).hasLayout).toBe(false);
  });

  it("answers 404 for an unknown slug", async () => {
    expectProblem(await server.call("pages.get", { slug: "findes-ikke" }, { key }), 404, "not_found");
  });

  it("needs pages:read", async () => {
    await expectScopeMatrix(server, "pages.get", { slug: "om-os" });
  });

  it("rejects bad input with 400", async () => {
    await expectRejected(server, "pages.get", key, [{}, { slug: "" }, { slug: "a" }, { slug: "OM-OS" }, { slug: 1 }, { slug: "om-os", body: true }]);
  });
});
