// Agent profiles in the tests: what a 2026-04-08 profile declares (the shopping capabilities it speaks, at that
// version), and a loopback server that serves them.
import http from "node:http";
import type { AddressInfo } from "node:net";

const V = [{ version: "2026-04-08" }];

/** The capabilities of an agent that shops: checkout with its extensions, orders, catalog and cart. */
export function shoppingCapabilities(order: Record<string, unknown> = {}): Record<string, Array<Record<string, unknown>>> {
  return {
    "dev.ucp.shopping.checkout": V,
    "dev.ucp.shopping.fulfillment": V,
    "dev.ucp.shopping.discount": V,
    "dev.ucp.shopping.buyer_consent": V,
    "dev.ucp.shopping.order": [{ version: "2026-04-08", ...order }],
    "dev.ucp.shopping.catalog.search": V,
    "dev.ucp.shopping.catalog.lookup": V,
    "dev.ucp.shopping.cart": V,
  };
}

export interface ProfileServer {
  /** http://127.0.0.1:<port>: a route's profile URL is base + its path. */
  base: string;
  close(): Promise<void>;
}

/** Serves agent profiles on loopback (the tests set UCP_ALLOW_LOCAL_PROFILES): each route's body as JSON, else 404. */
export async function serveProfiles(routes: Readonly<Record<string, unknown>>): Promise<ProfileServer> {
  const server = http.createServer((req, res) => {
    const body = routes[req.url ?? ""];
    if (body === undefined) res.writeHead(404).end();
    else res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
