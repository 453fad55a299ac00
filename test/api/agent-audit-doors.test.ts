// The audit log tells the agent protocols apart: a checkout made through the UCP door (REST binding) and one made
// through the ACP door leave their entries with door "ucp" and "acp", where both once said "rest".
import { describe, expect, it } from "vitest";
import { sendJson } from "../support/protocol.ts";
import { useServer } from "../support/server.ts";
import { plainProducts } from "../support/session.ts";

const { server, keys } = useServer({ config: { publicBaseUrl: "https://shop.example.dk" }, keys: { agent: ["checkout:agent"] } });

/** The audit entries of one checkout session, oldest first. */
function entriesOf(sessionId: string) {
  return server.prisma.auditEntry.findMany({ where: { subjectId: sessionId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
}

describe("audit door of the agent protocols", () => {
  it("records a UCP checkout's create and cancel with door ucp", async () => {
    const [product] = await plainProducts(server);
    const headers = { Authorization: `Bearer ${keys.agent}`, "Content-Type": "application/json" };
    const created = await sendJson(`${server.url}/ucp/checkout-sessions`, "POST", headers, { line_items: [{ item: { id: product!.id }, quantity: 1 }] });
    expect(created.status).toBe(201);
    const id = (created.body as { id: string }).id;
    expect((await sendJson(`${server.url}/ucp/checkout-sessions/${id}/cancel`, "POST", headers)).status).toBe(200);
    const entries = await entriesOf(id);
    expect(entries.map((entry) => [entry.tool, entry.door])).toEqual([
      ["checkout.create", "ucp"],
      ["checkout.cancel", "ucp"],
    ]);
  });

  it("records an ACP checkout's create and cancel with door acp", async () => {
    const [product] = await plainProducts(server);
    const headers = (key: string) => ({ Authorization: `Bearer ${keys.agent}`, "API-Version": "2026-04-17", "Content-Type": "application/json", "Idempotency-Key": key });
    const body = { line_items: [{ id: product!.id }], currency: "dkk", capabilities: {} };
    const created = await sendJson(`${server.url}/acp/checkout_sessions`, "POST", headers("audit-door-create"), body);
    expect(created.status).toBe(201);
    const id = (created.body as { id: string }).id;
    expect((await sendJson(`${server.url}/acp/checkout_sessions/${id}/cancel`, "POST", headers("audit-door-cancel"), {})).status).toBe(200);
    const entries = await entriesOf(id);
    expect(entries.map((entry) => [entry.tool, entry.door, entry.actor.startsWith("key:")])).toEqual([
      ["checkout.create", "acp", true],
      ["checkout.cancel", "acp", true],
    ]);
  });
});
