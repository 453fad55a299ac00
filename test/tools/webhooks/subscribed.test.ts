// Which event types have subscribers, as a process keeps it: a sale with no subscriber for its events reads no
// endpoints and queues nothing; a subscription made by a tool counts from its answer on, one written past the tools
// (psql, another process) from the trigger's notice on, and a disabled endpoint gets nothing.
import { describe, expect, it } from "vitest";
import { mayHaveSubscribers } from "../../../src/tools/webhooks/subscribed.ts";
import { expectOk } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { plainProducts } from "../../support/session.ts";
import { poll } from "../../support/wait.ts";

const { server, keys: { key } } = useServer({ config: { webhooksAllowLocal: true }, keys: { key: ["webhooks:write", "orders:write"] } });
const SHIPPING = { name: "Jens Jensen", address: "Vestergade 3", zip: "8000", city: "Aarhus C" };
const created = () => server.prisma.outboxEvent.count({ where: { type: "order.created" } });

async function order(): Promise<void> {
  const [product] = await plainProducts(server, 1);
  expectOk(server, "orders.create", await server.call("orders.create", { items: [{ productSlug: product!.slug, quantity: 1 }], email: "a@example.dk", shipping: SHIPPING }, { key }));
}

describe("subscribed event types", () => {
  it("follow the endpoints: none, one made by a tool, one disabled and one written past the tools", async () => {
    await server.prisma.webhookEndpoint.deleteMany();
    expect(await poll(() => mayHaveSubscribers(server.prisma, "order.created"), (has) => !has, 5_000)).toBe(false);
    await order();
    expect(await created()).toBe(0);

    const endpoint = expectOk<{ id: string }>(server, "webhooks.create", await server.call("webhooks.create", { url: "http://127.0.0.1:9/erp", events: ["order.created"] }, { key }));
    expect(await mayHaveSubscribers(server.prisma, "order.created")).toBe(true);
    await order();
    expect(await created()).toBe(1);

    await server.prisma.webhookEndpoint.update({ where: { id: endpoint.id }, data: { disabledAt: new Date() } });
    expect(await poll(() => mayHaveSubscribers(server.prisma, "order.created"), (has) => !has, 5_000)).toBe(false);
    await order();
    expect(await created()).toBe(1);

    await server.prisma.webhookEndpoint.create({ data: { url: "http://127.0.0.1:9/other", events: ["order.created"], secret: `whsec_${Buffer.from("y".repeat(32)).toString("base64")}` } });
    expect(await poll(() => mayHaveSubscribers(server.prisma, "order.created"), (has) => has, 5_000)).toBe(true);
    await order();
    expect(await created()).toBe(2);
  });
});
