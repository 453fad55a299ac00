// A local webhook receiver for tests: verifies every request with the standardwebhooks library's own verify (signature,
// timestamp tolerance) against the secrets it is told — or, for ACP paths, the Merchant-Signature as the ACP webhook
// spec states it — records what arrived, and answers a scripted status.
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export interface Received {
  /** The URL path the POST went to. */
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The verified payload, or null when verification failed (then `error` says why). */
  payload: { type: string; timestamp: string; data: Record<string, unknown> } | null;
  error: string | null;
  /** What the receiver answered. */
  status: number;
  at: number;
}

export interface WebhookReceiver {
  url: string;
  received: Received[];
  /** Verify requests to this path with this whsec_ secret. */
  trust(path: string, secret: string): void;
  /** Verify requests to this path as ACP order events: Merchant-Signature with this shared secret. */
  trustMerchant(path: string, secret: string): void;
  /** Answer the next requests to `path` with these statuses (then 204 again); 0 holds the request open unanswered. */
  failNext(path: string, ...statuses: number[]): void;
  /** Answer every request to `path` with this status until changed (null: back to 204). */
  answer(path: string, status: number | null): void;
  /** Keep requests to `path` open unanswered (a receiver that hangs) until `release(path)` answers them. */
  hold(path: string): void;
  /** Answers the requests `hold` kept open, in the order they came, and answers later ones at once again. */
  release(path: string): void;
  /** The requests that arrived at `path`. */
  at(path: string): Received[];
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const secrets = new Map<string, string>();
  const merchantSecrets = new Map<string, string>();
  const scripted = new Map<string, number[]>();
  const fixed = new Map<string, number>();
  const received: Received[] = [];
  const held = new Map<string, Array<() => void>>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const path = request.url ?? "/";
      const body = Buffer.concat(chunks).toString("utf8");
      let payload: Received["payload"] = null;
      let error: string | null = null;
      try {
        const merchant = merchantSecrets.get(path);
        const secret = secrets.get(path);
        if (merchant) payload = verifyMerchantSignature(merchant, request.headers, body);
        else if (!secret) throw new Error(`no secret for ${path}`);
        else payload = new Webhook(secret).verify(body, request.headers as Record<string, string>) as Received["payload"];
      } catch (failure) {
        error = failure instanceof Error ? failure.message : String(failure);
      }
      const status = scripted.get(path)?.shift() ?? fixed.get(path) ?? (payload ? 204 : 400);
      received.push({ path, headers: request.headers, body, payload, error, status, at: Date.now() });
      const waiting = held.get(path);
      if (waiting) waiting.push(() => response.writeHead(status).end());
      else if (status !== 0) response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    trust: (path, secret) => void secrets.set(path, secret),
    trustMerchant: (path, secret) => void merchantSecrets.set(path, secret),
    failNext: (path, ...statuses) => void scripted.set(path, [...(scripted.get(path) ?? []), ...statuses]),
    answer: (path, status) => void (status === null ? fixed.delete(path) : fixed.set(path, status)),
    hold: (path) => void held.set(path, held.get(path) ?? []),
    release: (path) => {
      const waiting = held.get(path) ?? [];
      held.delete(path);
      for (const answer of waiting) answer();
    },
    at: (path) => received.filter((entry) => entry.path === path),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Creates an endpoint for `path` of the receiver through webhooks.create (a `*` key) and trusts its secret there. */
export async function subscribe(
  server: { call(name: string, input: unknown, options: { key: string }): Promise<{ status: number; body: { result?: unknown } }>; key(...scopes: string[]): Promise<string> },
  receiver: WebhookReceiver,
  path: string,
  events: string[],
): Promise<{ id: string; secret: string }> {
  const answer = await server.call("webhooks.create", { url: `${receiver.url}${path}`, events }, { key: await server.key("*") });
  if (answer.status !== 200) throw new Error(`webhooks.create answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  const created = answer.body.result as { id: string; secret: string };
  receiver.trust(path, created.secret);
  return created;
}

/**
 * The ACP webhook spec's check: `Merchant-Signature: t=<unix seconds>,v1=<64 hex>`, HMAC-SHA256 of "<t>.<raw body>"
 * with the shared secret, the timestamp within 300 seconds. Throws on any failure; the parsed body otherwise.
 */
function verifyMerchantSignature(secret: string, headers: http.IncomingHttpHeaders, body: string): Received["payload"] {
  const header = headers["merchant-signature"];
  const match = typeof header === "string" ? /^t=(\d+),v1=([a-fA-F0-9]{64})$/.exec(header) : null;
  if (!match) throw new Error("Merchant-Signature must be t=<timestamp>,v1=<64_hex>.");
  const t = Number(match[1]);
  if (Math.abs(Date.now() / 1000 - t) > 300) throw new Error("Timestamp outside allowed window.");
  const expected = crypto.createHmac("sha256", secret).update(`${match[1]}.${body}`).digest();
  if (!crypto.timingSafeEqual(expected, Buffer.from(match[2]!, "hex"))) throw new Error("Webhook signature verification failed.");
  return JSON.parse(body) as Received["payload"];
}
