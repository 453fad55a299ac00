// ACP delegated payment through real HTTP against the local Stripe fake: complete with payment_data naming the
// stripe_spt handler and a shared payment token charges it through the Stripe SDK (a confirmed PaymentIntent with the
// granted token, the session's total and currency); a decline is a payment_declined message and leaves no order.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkoutSession, checkoutSessionWithOrder } from "../../src/api/acp/v2026-04-17.ts";
import { startFakeStripe, type FakeStripe } from "../support/fake-stripe.ts";
import { useServer } from "../support/server.ts";
import { plainProducts } from "../support/session.ts";

let stripe: FakeStripe;
beforeAll(async () => {
  stripe = await startFakeStripe();
});
afterAll(() => stripe.close());
const { server, keys: { KEY } } = useServer({
  config: () => ({ stripeSecretKey: "sk_test_acp", stripeApiUrl: stripe.url, publicBaseUrl: "https://shop.example.dk" }),
  keys: { KEY: ["checkout:agent"] },
});

let counter = 0;
async function acp(path: string, body: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${KEY}`, "API-Version": "2026-04-17", "Content-Type": "application/json", "Idempotency-Key": `spt-${++counter}` },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

const DETAILS = { name: "Mette Hansen", address: { name: "Mette Hansen", line_one: "Strøget 12", city: "København K", state: "", country: "DK", postal_code: "1160" } };
const spt = (token: string) => ({ payment_data: { handler_id: "stripe_spt", instrument: { type: "card", credential: { type: "spt", token } } } });

async function readySession() {
  const [product] = await plainProducts(server, 2);
  const created = await acp("/acp/checkout_sessions", { line_items: [{ id: product!.id }], currency: "dkk", capabilities: {}, buyer: { email: "spt@example.dk" }, fulfillment_details: DETAILS });
  expect(created.status).toBe(201);
  const session = checkoutSession.parse(created.body);
  expect(session.status).toBe("ready_for_payment");
  expect(session.capabilities.payment!.handlers.find((handler) => handler.id === "stripe_spt")).toMatchObject({ requires_delegate_payment: true, psp: "stripe" });
  return session;
}

describe("ACP delegated payment (Stripe shared payment tokens)", () => {
  it("charges the token through a confirmed PaymentIntent for the session's total and marks the order paid", async () => {
    const session = await readySession();
    const total = session.totals.find((entry) => entry.type === "total")!.amount;
    const completed = await acp(`/acp/checkout_sessions/${session.id}/complete`, spt("spt_test_ok123"));
    expect(completed.status).toBe(200);
    const done = checkoutSessionWithOrder.parse(completed.body);
    expect(done.status).toBe("completed");
    const intent = stripe.requests.find((request) => request.path === "/v1/payment_intents")!;
    expect(intent.form.get("shared_payment_granted_token")).toBe("spt_test_ok123");
    expect(intent.form.get("amount")).toBe(String(total));
    expect(intent.form.get("currency")).toBe("dkk");
    expect(intent.form.get("confirm")).toBe("true");
    expect(intent.form.get("metadata[checkoutSessionId]")).toBe(session.id);
    const order = await server.prisma.order.findUniqueOrThrow({ where: { id: done.order.id } });
    expect(order).toMatchObject({ status: "paid", acpSessionId: session.id, channel: "acp" });
  });

  it("turns a decline into a payment_declined message: no order, stock untouched, the session stays open", async () => {
    const session = await readySession();
    const before = await server.prisma.product.findUniqueOrThrow({ where: { id: session.line_items[0]!.product_id! } });
    const declined = await acp(`/acp/checkout_sessions/${session.id}/complete`, spt("spt_decline_1"));
    expect(declined.status).toBe(200);
    const body = checkoutSession.parse(declined.body);
    expect(body.status).toBe("ready_for_payment");
    expect(body.messages[0]).toMatchObject({ type: "error", code: "payment_declined" });
    expect(await server.prisma.order.count({ where: { acpSessionId: session.id } })).toBe(0);
    expect((await server.prisma.product.findUniqueOrThrow({ where: { id: before.id } })).stock).toBe(before.stock);
    // A credential that is no shared payment token is declined before Stripe is asked.
    const calls = stripe.requests.length;
    const bad = await acp(`/acp/checkout_sessions/${session.id}/complete`, spt("tok_visa"));
    expect(checkoutSession.parse(bad.body).messages[0]).toMatchObject({ code: "payment_declined" });
    expect(stripe.requests.length).toBe(calls);
  });
});
