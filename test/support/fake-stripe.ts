// A local stand-in for the Stripe API (node:http on 127.0.0.1:0): answers Checkout Session creation, retrieval and expiry,
// PaymentIntent and Refund creation, records every request (method, path, decoded form body) so tests can assert what the
// SDK sent. Also signs webhook payloads.
import http from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";

export interface StripeRequest {
  method: string;
  path: string;
  form: URLSearchParams;
  /** The Idempotency-Key header the SDK sent, if any. */
  idempotencyKey: string | undefined;
}

export interface FakeStripe {
  url: string;
  requests: StripeRequest[];
  /** Checkout Sessions a shopper has paid: they can no longer be expired. */
  completed: Set<string>;
  close(): Promise<void>;
}

export async function startFakeStripe(): Promise<FakeStripe> {
  const requests: StripeRequest[] = [];
  const completed = new Set<string>();
  const expired = new Set<string>();
  let counter = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const form = new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
      const key = req.headers["idempotency-key"];
      requests.push({ method: req.method ?? "", path: req.url ?? "", form, idempotencyKey: typeof key === "string" ? key : undefined });
      res.setHeader("content-type", "application/json");
      if (req.method === "POST" && req.url === "/v1/checkout/sessions") {
        const id = `cs_test_${++counter}`;
        res.end(JSON.stringify({ id, object: "checkout.session", url: `https://checkout.stripe.test/c/pay/${id}`, mode: "payment", metadata: {} }));
        return;
      }
      const session = /^\/v1\/checkout\/sessions\/(cs_[\w-]+)(\/expire)?$/.exec(req.url ?? "");
      if (session) {
        const [, id, expire] = session;
        const status = completed.has(id!) ? "complete" : expired.has(id!) ? "expired" : "open";
        if (req.method === "POST" && expire) {
          if (status !== "open") {
            res.statusCode = 400;
            res.end(JSON.stringify({ error: { type: "invalid_request_error", message: `Only Checkout Sessions with a status of open can be expired; this one is ${status}.` } }));
            return;
          }
          expired.add(id!);
        }
        res.end(JSON.stringify({ id, object: "checkout.session", status: expire ? "expired" : status, mode: "payment", metadata: {} }));
        return;
      }
      // A paid PaymentIntent with its charge: how the shopper paid (an id with "mobilepay" in it was paid so, else by card).
      const intent = /^\/v1\/payment_intents\/(pi_[\w-]+)(\?.*)?$/.exec(req.url ?? "");
      if (req.method === "GET" && intent) {
        const type = intent[1]!.includes("mobilepay") ? "mobilepay" : "card";
        res.end(JSON.stringify({ id: intent[1], object: "payment_intent", status: "succeeded", latest_charge: { id: `ch_${intent[1]}`, object: "charge", payment_method_details: { type } } }));
        return;
      }
      // Delegated payment: a PaymentIntent with a shared payment token; spt_decline… tokens are declined as cards are.
      if (req.method === "POST" && req.url === "/v1/payment_intents") {
        const token = form.get("shared_payment_granted_token") ?? "";
        if (token.startsWith("spt_decline")) {
          res.statusCode = 402;
          res.end(JSON.stringify({ error: { type: "card_error", code: "card_declined", decline_code: "generic_decline", message: "Your card was declined." } }));
          return;
        }
        const id = `pi_test_${++counter}`;
        res.end(JSON.stringify({ id, object: "payment_intent", status: "succeeded", amount: Number(form.get("amount")), currency: form.get("currency"), metadata: {} }));
        return;
      }
      if (req.method === "POST" && req.url === "/v1/refunds") {
        const intent = form.get("payment_intent") ?? "";
        if (intent.startsWith("pi_fail")) {
          res.statusCode = 400;
          res.end(JSON.stringify({ error: { type: "invalid_request_error", code: "charge_already_refunded", message: "Charge has already been refunded." } }));
          return;
        }
        res.end(JSON.stringify({ id: `re_test_${++counter}`, object: "refund", status: "succeeded", amount: Number(form.get("amount")), payment_intent: intent }));
        return;
      }
      res.statusCode = 404;
      res.end(JSON.stringify({ error: { type: "invalid_request_error", message: `No fake for ${req.method} ${req.url}` } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    completed,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

const signer = new Stripe("sk_test_signer");

/** POSTs a Stripe event to the shop's webhook, signed with `secret` by the SDK's own test-header helper. */
export async function sendStripeEvent(baseUrl: string, event: object, secret: string, signature?: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const payload = JSON.stringify(event);
  const header = signature ?? signer.webhooks.generateTestHeaderString({ payload, secret });
  const response = await fetch(`${baseUrl}/webhooks/stripe`, { method: "POST", headers: { "content-type": "application/json", "stripe-signature": header }, body: payload });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** A checkout.session.completed event for an order's Checkout Session. */
export function sessionCompleted(eventId: string, orderId: string, sessionId: string, intentId = `pi_${eventId}`) {
  return {
    id: eventId,
    object: "event",
    type: "checkout.session.completed",
    created: Math.floor(Date.now() / 1000),
    data: {
      object: {
        id: sessionId,
        object: "checkout.session",
        client_reference_id: orderId,
        metadata: { orderId },
        payment_intent: intentId,
        payment_status: "paid",
        payment_method_types: ["card"],
      },
    },
  };
}
