// /info/privatlivspolitik: the privacy policy saved in the admin (settings policies), a Danish default naming what the
// shop keeps and for how long, linked from the footer and the checkout; the link UCP and ACP give agents resolves.
import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS } from "../../src/tools/settings/defaults.ts";
import { expectOk } from "../support/expect.ts";
import { useServer } from "../support/server.ts";
import { expectHtmlPage, WebClient } from "../support/web.ts";

const { server } = useServer();

describe("/info/privatlivspolitik", () => {
  it("shows the default policy: orders, addresses, chats, login codes, cookies and how long each is kept", async () => {
    const page = await new WebClient(server).get("/info/privatlivspolitik");
    expectHtmlPage(page);
    expect(page.html).toContain("<h1>Privatlivspolitik</h1>");
    for (const topic of ["Ordrer og adresser", "Chat med vores AI-assistent", "Login-koder", "Cookies", "5 år", "10 minutter", "shop_session", "Datatilsynet"]) {
      expect(page.html, topic).toContain(topic);
    }
    expect(DEFAULT_SETTINGS.policies.privacy).toContain("bogføringsloven");
  });

  it("shows the text the owner saves in the policies", async () => {
    const key = await server.key("settings:write");
    expectOk(server, "settings.update_policies", await server.call("settings.update_policies", { privacy: "## Vores løfte\n\nVi gemmer kun det nødvendige." }, { key }));
    // The storefront reads settings through its chrome cache for at most two seconds; the policy page reads them fresh.
    const page = await new WebClient(server).get("/info/privatlivspolitik");
    expect(page.html).toContain("Vi gemmer kun det nødvendige.");
    expect(page.html).not.toContain("Login-koder");
  });

  it("is linked from the footer of every page and from the checkout", async () => {
    const client = new WebClient(server);
    expect((await client.get("/")).html).toContain('<a href="/info/privatlivspolitik">Privatlivspolitik</a>');
    const product = await server.prisma.product.findFirstOrThrow({ where: { deletedAt: null, draft: false, giftCard: false, variants: { none: {} }, stock: { gt: 0 } } });
    await client.get(`/products/${product.slug}`);
    await client.post("/cart/add", { productSlug: product.slug, quantity: "1" });
    const checkout = await client.get("/checkout");
    expect(checkout.status).toBe(200);
    expect(checkout.html).toContain('<a href="/info/privatlivspolitik">privatlivspolitik</a>');
  });

  it("is where the ACP feed's privacy_policy link leads (200)", async () => {
    const line = (await (await fetch(`${server.url}/acp/feed/products.jsonl`)).text()).split("\n")[0]!;
    const links = (JSON.parse(line) as { variants: Array<{ seller?: { links?: Array<{ type: string; url: string }> } }> }).variants[0]!.seller!.links!;
    const privacy = links.find((link) => link.type === "privacy_policy")!;
    const terms = links.find((link) => link.type === "terms_of_service")!;
    for (const link of [privacy, terms]) expect((await fetch(`${server.url}${new URL(link.url).pathname}`)).status).toBe(200);
  });
});
