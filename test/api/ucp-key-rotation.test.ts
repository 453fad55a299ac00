// UCP webhooks across a signing-key rotation, through the real HTTP door and outbox on a server with an injected clock:
// the next key is published in both discovery profiles before it signs, deliveries after the rotation verify with the
// newly published key (RFC 9421 and detached JWS), the old key stays published for the grace period, and a revoking
// rotation removes it from the profiles at once.
import crypto from "node:crypto";
import type { JWK } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UCP_JWS, UCP_RFC9421, ucpEventRef } from "../../src/api/ucp/webhook-signers.ts";
import { DAY_MS } from "../../src/tools/keys/signing-keys.ts";
import { useServer } from "../support/server.ts";
import { startUcpReceiver, verifyDetachedJws, verifyRfc9421, type UcpDelivery, type UcpReceiver } from "../support/ucp-webhook-receiver.ts";
import { poll } from "../support/wait.ts";

let receiver: UcpReceiver;
let clock = Date.now();

beforeAll(async () => {
  receiver = await startUcpReceiver();
});
afterAll(() => receiver?.close());
const { server } = useServer({ config: { webhooksAllowLocal: true, publicBaseUrl: "https://shop.example.dk" }, start: { now: () => new Date(clock) } });

async function discovery(path: string): Promise<{ keys: JWK[]; cacheControl: string | null }> {
  const response = await fetch(`${server.url}${path}`);
  return { keys: ((await response.json()) as { signing_keys: JWK[] }).signing_keys, cacheControl: response.headers.get("cache-control") };
}

const kids = async (path = "/.well-known/ucp") => (await discovery(path)).keys.map((key) => key.kid);

/** One UCP event through the outbox, as a checkout's order event goes; resolves with its delivery. */
async function deliver(signer: string): Promise<UcpDelivery> {
  const eventId = crypto.randomUUID();
  const path = `/hooks/${eventId}`;
  const prisma = server.prisma;
  await server.runtime.outbox.enqueue(
    { db: prisma, afterCommit: (effect) => effect() },
    { type: "ucp.order_placed", url: `${receiver.url}${path}`, body: JSON.stringify({ event_id: eventId }), signer, keyRef: ucpEventRef(eventId, new Date()) },
  );
  const [delivery] = await poll(async () => receiver.at(path), (list) => list.length > 0, 10_000);
  return delivery!;
}

const keyidOf = (delivery: UcpDelivery) => /;keyid="([^"]*)"/.exec(String(delivery.headers["signature-input"]))?.[1];

describe("a signing-key rotation", () => {
  it("publishes the next key first, signs with it after the lead, and keeps the old key published", { timeout: 60_000 }, async () => {
    const [first] = await kids();
    expect(keyidOf(await deliver(UCP_RFC9421))).toBe(first);

    clock += 90 * DAY_MS;
    const ahead = await kids();
    expect(ahead).toHaveLength(2);
    expect(ahead[0]).toBe(first);
    expect(await kids("/ucp/.well-known/ucp")).toEqual(ahead);
    expect(keyidOf(await deliver(UCP_RFC9421))).toBe(first);

    clock += 11 * 60_000;
    const next = ahead[1]!;
    const after = await discovery("/.well-known/ucp");
    expect(after.keys.map((key) => key.kid)).toEqual([next, first]);
    expect(after.cacheControl).toBe("public, max-age=300");
    const signed = await deliver(UCP_RFC9421);
    expect(keyidOf(signed)).toBe(next);
    verifyRfc9421(signed, after.keys);
    expect(() => verifyRfc9421(signed, after.keys.filter((key) => key.kid !== next))).toThrow(/key_not_found/);

    const older = await discovery("/ucp/.well-known/ucp");
    expect(older.keys).toEqual(after.keys);
    expect(older.cacheControl).toBe("public, max-age=300");
    expect(await verifyDetachedJws(await deliver(UCP_JWS), older.keys)).toMatchObject({ kid: next });
  });

  it("with revoke takes the old keys out of the profiles at once and signs with the new one", { timeout: 60_000 }, async () => {
    const before = await kids();
    const rotation = await server.runtime.signingKeys.rotate({ revoke: true });
    const { keys } = await discovery("/.well-known/ucp");
    expect(keys.map((key) => key.kid)).toEqual([rotation.kid]);
    expect(rotation.deleted.sort()).toEqual([...before].sort());
    const signed = await deliver(UCP_RFC9421);
    expect(keyidOf(signed)).toBe(rotation.kid);
    verifyRfc9421(signed, keys);
    expect(await verifyDetachedJws(await deliver(UCP_JWS), (await discovery("/ucp/.well-known/ucp")).keys)).toMatchObject({ kid: rotation.kid });
  });
});
