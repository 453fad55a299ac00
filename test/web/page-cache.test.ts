// The page cache of the catalogue pages: a cached page carries each shopper's own CSRF token and session flag, a
// catalogue write shows on the next page view (never a stale price), and a page that was a 404 appears once created.
import { beforeAll, describe, expect, it } from "vitest";
import { Csrf } from "../../src/web/csrf.ts";
import { escapeHtml, formatMoney } from "../../src/web/html.ts";
import { CSRF_PURPOSE } from "../../src/web/storefront/site.ts";
import { expectOk } from "../support/expect.ts";
import { useServer } from "../support/server.ts";
import { plainProducts, sessionIdOf, type DemoProduct } from "../support/session.ts";
import { expectHtmlPage, expectRedirect, WebClient } from "../support/web.ts";

const { server } = useServer();
let product: DemoProduct;
beforeAll(async () => {
  product = (await plainProducts(server, 5))[0]!;
});

const tokenOf = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)?.[1];
const badgeOf = (html: string) => /<span class="badge"[^>]*>/.exec(html)?.[0];

describe("cached catalogue pages", () => {
  it("give each shopper a CSRF token of their own session, and only a shopper with a session the session flag", async () => {
    const path = `/products/${product.slug}`;
    const anonymous = await new WebClient(server).get(path);
    const first = new WebClient(server);
    const second = new WebClient(server);
    await first.get("/");
    await second.get("/");
    const pages = [await first.get(path), await second.get(path), await first.get(path)];
    for (const page of [anonymous, ...pages]) expectHtmlPage(page);

    const csrf = new Csrf(server.runtime.secret);
    expect(badgeOf(anonymous.html)).not.toContain("data-session");
    expect(csrf.verify("", CSRF_PURPOSE, tokenOf(anonymous.html))).toBe(true);
    for (const [client, other, page] of [[first, second, pages[0]!], [second, first, pages[1]!], [first, second, pages[2]!]] as const) {
      expect(badgeOf(page.html)).toContain("data-session");
      const token = tokenOf(page.html);
      expect(csrf.verify(sessionIdOf(client.cookie), CSRF_PURPOSE, token)).toBe(true);
      expect(csrf.verify(sessionIdOf(other.cookie), CSRF_PURPOSE, token)).toBe(false);
      // The same markup as every other shopper's page apart from the token.
      expect(page.html.replace(token!, "")).toBe(pages[0]!.html.replace(tokenOf(pages[0]!.html)!, ""));
    }

    // Each token works for its own session only: the second shopper's token is refused in the first one's session.
    expect((await first.post("/cart/add", { productSlug: product.slug, quantity: "1", _csrf: tokenOf(pages[1]!.html)! })).status).toBe(403);
    expectRedirect(await first.post("/cart/add", { productSlug: product.slug, quantity: "1", _csrf: tokenOf(pages[2]!.html)! }), "/cart?notice=added");
    expectRedirect(await second.post("/cart/add", { productSlug: product.slug, quantity: "1", _csrf: tokenOf(pages[1]!.html)! }), "/cart?notice=added");
  });

  it("show a new price on the next view after the write", async () => {
    const path = `/products/${product.slug}`;
    const client = new WebClient(server);
    const before = await client.get(path);
    expect(before.html).toContain(escapeHtml(formatMoney(product.priceDkk, "DKK")));
    const search = `/search?q=${encodeURIComponent(product.name)}`;
    expect((await client.get(search)).html).toContain(escapeHtml(formatMoney(product.priceDkk, "DKK")));

    const key = await server.key("products:write");
    const newPrice = product.priceDkk + 1234;
    expectOk(server, "products.update", await server.call("products.update", { slug: product.slug, patch: { priceDkk: newPrice } }, { key }));
    for (const page of [await client.get(path), await client.get(search)]) {
      expect(page.html).toContain(escapeHtml(formatMoney(newPrice, "DKK")));
      expect(page.html).not.toContain(escapeHtml(formatMoney(product.priceDkk, "DKK")));
    }
    expectOk(server, "products.update", await server.call("products.update", { slug: product.slug, patch: { priceDkk: product.priceDkk } }, { key }));
    expect((await client.get(path)).html).toContain(escapeHtml(formatMoney(product.priceDkk, "DKK")));
  });

  it("keep no error page: a product that appears after a 404 is shown at once", async () => {
    const client = new WebClient(server);
    const slug = `cache-test-${Date.now()}`;
    expectHtmlPage(await client.get(`/products/${slug}`), 404);
    const key = await server.key("products:write");
    const created = await server.call(
      "products.create",
      { slug, name: "Cachetest stel", brand: "Test", categorySlug: "solbriller", priceDkk: 49900, stock: 3, description: "Et stel til testen af sidecachen." },
      { key },
    );
    expectOk(server, "products.create", created);
    const page = await client.get(`/products/${slug}`);
    expectHtmlPage(page);
    expect(page.html).toContain("Cachetest stel");
  });
});
