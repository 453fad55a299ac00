// The UCP webhook signers, one per protocol version, both with the shop's ES256 key (tools/keys/signing-keys.ts):
// - 2026-04-08: RFC 9421 HTTP Message Signatures (`Signature-Input`, `Signature`) over the method, authority, path,
//   UCP-Agent, the RFC 9530 `Content-Digest` of the raw body, content type and the Webhook-Id / Webhook-Timestamp headers;
// - 2026-01-11: a detached JWS (RFC 7515 appendix F, unencoded payload per RFC 7797) over the raw body in
//   `Request-Signature`, the key named by `kid` in its protected header.
// The key reference of a UCP event is `ucp-event:<uuid>:<unix seconds>`: the event's id and when it happened.
import { FlattenedSign } from "jose";
import type { Signer } from "../../core/outbox/signers.ts";
import type { SigningKeys } from "../../tools/keys/signing-keys.ts";
import { contentDigest, es256, sfString, signatureBase, signatureParams } from "./http-signatures.ts";

export const UCP_RFC9421 = "ucp-rfc9421";
export const UCP_JWS = "ucp-jws-detached";

/** The key reference a UCP order event is enqueued with. */
export function ucpEventRef(eventId: string, occurredAt: Date): string {
  return `ucp-event:${eventId}:${Math.floor(occurredAt.getTime() / 1000)}`;
}

function readRef(keyRef: string): { eventId: string; occurred: number } {
  const match = /^ucp-event:([0-9a-f-]{36}):(\d{1,12})$/.exec(keyRef);
  if (!match) throw new Error(`not a UCP event reference: ${keyRef.slice(0, 80)}`);
  return { eventId: match[1]!, occurred: Number(match[2]) };
}

/** Webhook-Id must be a UUID (2026-04-08); the event's id is one. */
function webhookHeaders(keyRef: string, body: string, businessProfile: string): Record<string, string> {
  const { eventId, occurred } = readRef(keyRef);
  return {
    "content-type": "application/json",
    "content-digest": contentDigest(body),
    "ucp-agent": `profile=${sfString(businessProfile)}`,
    "webhook-id": eventId,
    "webhook-timestamp": String(occurred),
  };
}

const COVERED = ["@method", "@authority", "@path", "ucp-agent", "content-digest", "content-type", "webhook-id", "webhook-timestamp"];

/** 2026-04-08: RFC 9421 `Signature-Input` / `Signature` (label sig1) with Content-Digest, Webhook-Id and Webhook-Timestamp. */
export function rfc9421Signer(keys: SigningKeys, businessProfile: string): Signer {
  return {
    name: UCP_RFC9421,
    async headers({ body, url, keyRef, timestamp }) {
      const key = await keys.current();
      const headers = webhookHeaders(keyRef, body, businessProfile);
      const target = new URL(url);
      const components = target.search ? [...COVERED.slice(0, 3), "@query", ...COVERED.slice(3)] : COVERED;
      const params = signatureParams(components, { created: Math.floor(timestamp.getTime() / 1000), keyid: key.kid });
      const signature = es256(signatureBase({ method: "POST", url: target, headers }, components, params), key.privateKey);
      return { ...headers, "signature-input": `sig1=${params}`, signature: `sig1=:${signature.toString("base64")}:` };
    },
  };
}

/** 2026-01-11: `Request-Signature: <protected>..<signature>`, a JWS over the unencoded raw body (b64 false), detached. */
export function detachedJwsSigner(keys: SigningKeys, businessProfile: string): Signer {
  return {
    name: UCP_JWS,
    async headers({ body, keyRef }) {
      const key = await keys.current();
      const jws = await new FlattenedSign(new TextEncoder().encode(body))
        .setProtectedHeader({ alg: "ES256", kid: key.kid, b64: false, crit: ["b64"] })
        .sign(key.privateKey);
      const { eventId, occurred } = readRef(keyRef);
      return {
        "content-type": "application/json",
        "ucp-agent": `profile=${sfString(businessProfile)}`,
        "webhook-id": eventId,
        "webhook-timestamp": String(occurred),
        "request-signature": `${jws.protected!}..${jws.signature}`,
      };
    },
  };
}

/** Both signers, for the outbox's registry: the business profile each names is its version's discovery document. */
export function ucpWebhookSigners(keys: SigningKeys, baseUrl: string): Signer[] {
  return [rfc9421Signer(keys, `${baseUrl}/.well-known/ucp`), detachedJwsSigner(keys, `${baseUrl}/ucp/.well-known/ucp`)];
}
