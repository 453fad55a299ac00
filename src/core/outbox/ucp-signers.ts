// The UCP webhook signers, one per protocol version, both with the shop's ES256 key (signing-keys.ts):
// - 2026-04-08: RFC 9421 HTTP Message Signatures (`Signature-Input`, `Signature`) over the method, authority, path,
//   UCP-Agent, the RFC 9530 `Content-Digest` of the raw body, content type and the Webhook-Id / Webhook-Timestamp headers;
// - 2026-01-11: a detached JWS (RFC 7515 appendix F, unencoded payload per RFC 7797) over the raw body in
//   `Request-Signature`, the key named by `kid` in its protected header.
// The key reference of a UCP event is `ucp-event:<uuid>:<unix seconds>`: the event's id and when it happened.
import crypto from "node:crypto";
import { FlattenedSign } from "jose";
import type { Signer } from "./signers.ts";
import type { SigningKeys } from "./signing-keys.ts";

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

/** RFC 9530 Content-Digest of the raw bytes (sha-256, as UCP requires). */
export function contentDigest(body: string | Uint8Array): string {
  return `sha-256=:${crypto.createHash("sha256").update(body).digest("base64")}:`;
}

/** An RFC 8941 string: quoted, with `"` and `\` escaped (only visible ASCII is allowed in one). */
export function sfString(value: string): string {
  if (!/^[\x20-\x7e]*$/.test(value)) throw new Error("structured-field strings are visible ASCII only");
  return `"${value.replace(/[\\"]/g, (char) => `\\${char}`)}"`;
}

/** A request (method and target) or a response (status), as the covered components read it. */
export interface MessageParts {
  method?: string;
  url?: URL;
  /** A response's status (the @status component). */
  status?: number;
  /** Lower-cased header names to their (single, trimmed) values. */
  headers: Record<string, string>;
}

/**
 * The RFC 9421 signature base (section 2.5) for these covered components and the serialised signature parameters
 * (`("@method" …);created=…;keyid="…"`). Derived components supported: @method, @authority, @path, @query, @target-uri,
 * and a response's @status.
 */
export function signatureBase(message: MessageParts, components: readonly string[], params: string): string {
  const lines = components.map((name) => `${sfString(name)}: ${componentValue(message, name)}`);
  lines.push(`"@signature-params": ${params}`);
  return lines.join("\n");
}

function componentValue({ method, url, headers, status }: MessageParts, name: string): string {
  if (!name.startsWith("@")) {
    const value = headers[name];
    if (value === undefined) throw new Error(`the covered header ${name} is missing`);
    return value.trim();
  }
  if (name === "@status") {
    if (status === undefined) throw new Error("@status belongs to responses");
    return String(status);
  }
  if (method === undefined || url === undefined) throw new Error(`${name} belongs to requests`);
  switch (name) {
    case "@method":
      return method.toUpperCase();
    case "@authority":
      return url.host.toLowerCase();
    case "@path":
      return url.pathname || "/";
    case "@query":
      return url.search || "?";
    case "@target-uri":
      return url.href;
    default:
      throw new Error(`unsupported derived component ${name}`);
  }
}

/** The serialised signature parameters: the inner list of components, then created and keyid. */
export function signatureParams(components: readonly string[], params: { created?: number; keyid: string; tag?: string }): string {
  let text = `(${components.map(sfString).join(" ")})`;
  if (params.created !== undefined) text += `;created=${params.created}`;
  text += `;keyid=${sfString(params.keyid)}`;
  if (params.tag !== undefined) text += `;tag=${sfString(params.tag)}`;
  return text;
}

/** ES256 over bytes, as the fixed-width r||s (IEEE P1363) RFC 9421 and JWS require, not DER. */
export function es256(data: string, key: crypto.KeyObject): Buffer {
  return crypto.sign("sha256", Buffer.from(data, "utf8"), { key, dsaEncoding: "ieee-p1363" });
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
