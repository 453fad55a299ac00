// pages.get_layout through real HTTP: null without a layout, the stored tree with one, invalid stored data as null; 404, scopes, bad input.
import { describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["pages:read"] } });

const getLayout = async (slug: string) => expectOk<{ layout: unknown }>(server, "pages.get_layout", await server.call("pages.get_layout", { slug }, { key }));

describe("pages.get_layout", () => {
  it("answers {layout: null} for a page that renders from its body", async () => {
    expect(await getLayout("om-os")).toEqual({ layout: null });
    expect(await getLayout("vinterudsalg")).toEqual({ layout: null });
  });

  it("returns the section tree that pages.set_layout stored", async () => {
    const layout = {
      sections: [
        { id: "top", type: "hero", props: { heading: "Returret", ctaLabel: "Kontakt", ctaUrl: "https://example.com/kontakt" } },
        {
          id: "to",
          type: "columns",
          props: { columns: [[{ id: "v", type: "text", props: { body: "Venstre." } }], [{ id: "h", type: "faq", props: { items: [{ q: "Hvor længe?", a: "30 dage." }] } }]] },
        },
      ],
    };
    const write = await server.key("pages:write");
    expectOk(server, "pages.set_layout", await server.call("pages.set_layout", { slug: "returret", layout }, { key: write }));
    expect(await getLayout("returret")).toEqual({ layout });
  });

  it("answers null for a stored layout that no longer validates", async () => {
    await server.prisma.page.update({ where: { slug: "om-os" }, data: { layout: { sections: [{ id: "x", type: "video", props: {} }] } } });
    expect(await getLayout("om-os")).toEqual({ layout: null });
  });

  it("answers 404 for an unknown slug", async () => {
    expectProblem(await server.call("pages.get_layout", { slug: "findes-ikke" }, { key }), 404, "not_found");
  });

  it("needs pages:read", async () => {
    await expectScopeMatrix(server, "pages.get_layout", { slug: "om-os" });
  });

  it("rejects bad input with 400", async () => {
    await expectRejected(server, "pages.get_layout", key, [{}, { slug: "" }, { slug: "x" }, { slug: "om os" }, { slug: null }, { slug: "om-os", full: true }]);
  });
});
