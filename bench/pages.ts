// Storefront targets of `npm run bench`: GET / and GET /products/<slug> as a returning shopper (session cookie) sees
// them. They need a session and a product of the seeded catalogue, so they are made per server, at run time.

export interface PageTarget {
  name: string;
  method: "GET";
  path: string;
  headers: Record<string, string>;
}

export async function pageTargets(origin: string): Promise<PageTarget[]> {
  const session = await fetch(`${origin}/api/v1/session`, { method: "POST" });
  const cookie = (session.headers.get("set-cookie") ?? "").split(";")[0]!;
  const found = await fetch(`${origin}/api/v1/tools/products.search`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"inStock":true,"limit":1}' });
  const slug = ((await found.json()) as { result: Array<{ slug: string }> }).result[0]!.slug;
  return [
    { name: "GET /", method: "GET", path: "/", headers: { cookie } },
    { name: "GET /products/<slug>", method: "GET", path: `/products/${slug}`, headers: { cookie } },
  ];
}
