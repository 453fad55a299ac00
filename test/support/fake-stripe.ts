// A local stand-in for the Stripe API (node:http on 127.0.0.1:0): answers Checkout Session creation, retrieval and expiry,
// PaymentIntent creation (shared payment tokens, or PaymentMethods named as Stripe's test ones: pm_card_visa,
// pm_card_mastercard, pm_card_chargeDeclined, pm_card_threeDSecureRequired), retrieval and update, and Refund creation;
// replays a PaymentIntent creation sent again under its Idempotency-Key (another body under it is refused) as Stripe
// does; records every request (method, path, decoded form body) so tests can assert what the SDK sent. Also signs
// webhook payloads.
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
  /** PaymentIntents created (a replay under the same Idempotency-Key creates none), by id. */
  intents: Map<string, FakeIntent>;
  /** The buyer finishes (or fails) the 3-D Secure of a PaymentIntent waiting for it. */
  authenticate(intentId: string, passed?: boolean): void;
  close(): Promise<void>;
}

export interface FakeIntent {
  id: string;
  status: "succeeded" | "requires_action" | "requires_payment_method";
  amount: number;
  currency: string;
  metadata: Record<string, string>;
  paymentMethod: string | null;
  returnUrl: string | null;
}

/** Stripe's test PaymentMethods this fake knows: brand and last four digits. */
const TEST_CARDS: Record<string, { brand: string; last4: string }> = {
  pm_card_visa: { brand: "visa", last4: "4242" },
  pm_card_mastercard: { brand: "mastercard", last4: "4444" },
  pm_card_chargeDeclined: { brand: "visa", last4: "0002" },
  pm_card_threeDSecureRequired: { brand: "visa", last4: "3220" },
};

const DECLINED = { error: { type: "card_error", code: "card_declined", decline_code: "generic_decline", message: "Your card was declined." } };

/** The metadata[...] fields of a form. */
function metadataOf(form: URLSearchParams): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const [key, value] of form) {
    const name = /^metadata\[(.+)\]$/.exec(key)?.[1];
    if (name) metadata[name] = value;
  }
  return metadata;
}

/** Whether a form or query asks to expand the PaymentIntent's payment_method. */
function expands(params: URLSearchParams): boolean {
  return [...params].some(([key, value]) => key.startsWith("expand") && value === "payment_method");
}

/** A PaymentIntent as Stripe answers it; the PaymentMethod expanded when asked for. */
function intentBody(intent: FakeIntent, expand: boolean) {
  const card = intent.paymentMethod ? TEST_CARDS[intent.paymentMethod] : undefined;
  const paymentMethod = expand && intent.paymentMethod ? { id: intent.paymentMethod, object: "payment_method", type: "card", card: card ? { brand: card.brand, last4: card.last4 } : null } : intent.paymentMethod;
  return {
    id: intent.id,
    object: "payment_intent",
    status: intent.status,
    amount: intent.amount,
    currency: intent.currency,
    metadata: intent.metadata,
    payment_method: paymentMethod,
    latest_charge: intent.status === "succeeded" ? { id: `ch_${intent.id}`, object: "charge", payment_method_details: { type: "card" } } : null,
    next_action:
      intent.status === "requires_action"
        ? { type: "redirect_to_url", redirect_to_url: { url: `https://hooks.stripe.test/3d_secure_2/hosted?payment_intent=${intent.id}`, return_url: intent.returnUrl } }
        : null,
  };
}

export async function startFakeStripe(): Promise<FakeStripe> {
  const requests: StripeRequest[] = [];
  const completed = new Set<string>();
  const expired = new Set<string>();
  const intents = new Map<string, FakeIntent>();
  /** Answers of PaymentIntent creations by Idempotency-Key, with the body they answered. */
  const replays = new Map<string, { body: string; status: number; answer: string }>();
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
      const intentPath = /^\/v1\/payment_intents\/(pi_[\w-]+)(\?.*)?$/.exec(req.url ?? "");
      const known = intentPath ? intents.get(intentPath[1]!) : undefined;
      if (known && req.method === "GET") {
        res.end(JSON.stringify(intentBody(known, expands(new URLSearchParams(intentPath![2]?.slice(1) ?? "")))));
        return;
      }
      if (known && req.method === "POST") {
        Object.assign(known.metadata, metadataOf(form));
        res.end(JSON.stringify(intentBody(known, expands(form))));
        return;
      }
      // A paid PaymentIntent with its charge: how the shopper paid (an id with "mobilepay" in it was paid so, else by card).
      if (req.method === "GET" && intentPath) {
        const type = intentPath[1]!.includes("mobilepay") ? "mobilepay" : "card";
        res.end(JSON.stringify({ id: intentPath[1], object: "payment_intent", status: "succeeded", latest_charge: { id: `ch_${intentPath[1]}`, object: "charge", payment_method_details: { type } } }));
        return;
      }
      if (req.method === "POST" && req.url === "/v1/payment_intents") {
        const body = form.toString();
        const earlier = typeof key === "string" ? replays.get(key) : undefined;
        if (earlier) {
          res.statusCode = earlier.body === body ? earlier.status : 400;
          res.end(earlier.body === body ? earlier.answer : JSON.stringify({ error: { type: "idempotency_error", message: "Keys for idempotent requests can only be used with the same parameters they were first used with." } }));
          return;
        }
        const [status, answer] = createIntent(form);
        if (typeof key === "string") replays.set(key, { body, status, answer: JSON.stringify(answer) });
        res.statusCode = status;
        res.end(JSON.stringify(answer));
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
  /**
   * A confirmed PaymentIntent: a shared payment token (spt_decline… is declined as cards are) or one of Stripe's test
   * PaymentMethods (chargeDeclined is declined, threeDSecureRequired waits for the buyer's authentication).
   */
  function createIntent(form: URLSearchParams): [number, unknown] {
    const token = form.get("shared_payment_granted_token");
    const method = form.get("payment_method");
    if (token?.startsWith("spt_decline") || method === "pm_card_chargeDeclined") return [402, DECLINED];
    if (method && !TEST_CARDS[method]) return [400, { error: { type: "invalid_request_error", code: "resource_missing", param: "payment_method", message: `No such PaymentMethod: '${method}'` } }];
    const intent: FakeIntent = {
      id: `pi_test_${++counter}`,
      status: method === "pm_card_threeDSecureRequired" ? "requires_action" : "succeeded",
      amount: Number(form.get("amount")),
      currency: form.get("currency") ?? "",
      metadata: metadataOf(form),
      // A shared token is charged as the card behind it: a Visa here.
      paymentMethod: method ?? (token ? "pm_card_visa" : null),
      returnUrl: form.get("return_url"),
    };
    intents.set(intent.id, intent);
    return [200, intentBody(intent, expands(form))];
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    completed,
    intents,
    authenticate(intentId, passed = true) {
      const intent = intents.get(intentId);
      if (intent?.status !== "requires_action") throw new Error(`${intentId} is not waiting for authentication`);
      intent.status = passed ? "succeeded" : "requires_payment_method";
    },
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
