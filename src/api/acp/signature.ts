// Request signatures of the ACP door. The spec asks agents to sign the canonical JSON of a request with a Timestamp
// (RFC 3339) and leaves the signed content and the algorithm to the business to publish; ours (docs/acp.md): Signature =
// base64url of HMAC-SHA256(key's signing secret, "<Timestamp>\n<METHOD>\n<path>\n<RFC 8785 canonical JSON of the body>"),
// the body of a request without one being the empty string. The method and path bind a signature to its operation and
// session, so a signed cancel of one session cannot be replayed against another. A Timestamp more than SKEW_SECONDS from
// the server's clock is stale.
import crypto from "node:crypto";
import { canonicalJson } from "../../core/canonical-json.ts";

export const SKEW_SECONDS = 300;

export type SignatureProblem = "signature_missing" | "timestamp_invalid" | "timestamp_stale" | "signature_invalid";

/** The request a signature is for: the REST method and path of the operation (the MCP binding names its REST twin). */
export interface SignedRequest {
  method: string;
  path: string;
  /** The parsed body; undefined for a request without one. */
  body: unknown;
}

function signedPayload(timestamp: string, request: SignedRequest): string {
  return `${timestamp}\n${request.method.toUpperCase()}\n${request.path}\n${request.body === undefined ? "" : canonicalJson(request.body)}`;
}

export function sign(secret: string, timestamp: string, request: SignedRequest): string {
  return crypto.createHmac("sha256", secret).update(signedPayload(timestamp, request)).digest("base64url");
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/** null when the request is signed with this secret at a fresh time; else what is wrong. */
export function checkSignature(secret: string, signature: string | undefined, timestamp: string | undefined, request: SignedRequest, now: Date): SignatureProblem | null {
  if (signature === undefined || timestamp === undefined) return "signature_missing";
  if (!RFC3339.test(timestamp) || Number.isNaN(Date.parse(timestamp))) return "timestamp_invalid";
  if (Math.abs(now.getTime() - Date.parse(timestamp)) > SKEW_SECONDS * 1000) return "timestamp_stale";
  if (!/^[A-Za-z0-9+/_-]{43}=?$/.test(signature)) return "signature_invalid";
  const given = Buffer.from(signature, "base64");
  const expected = crypto.createHmac("sha256", secret).update(signedPayload(timestamp, request)).digest();
  return given.length === expected.length && crypto.timingSafeEqual(given, expected) ? null : "signature_invalid";
}
