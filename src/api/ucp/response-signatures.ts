// Signed UCP responses (2026-04-08 "REST Response Signing"): checkout and order answers carry an RFC 9530
// Content-Digest of the exact body bytes and an RFC 9421 signature over @status, the digest and the content type, made
// with the shop's current key (the kid its discovery profile publishes). The spec recommends it for completions and
// payment outcomes; signing every checkout and order answer keeps the rule simple for agents.
import type { SigningKeys } from "../../tools/keys/signing-keys.ts";
import { contentDigest, es256, signatureBase, signatureParams } from "./http-signatures.ts";

const COMPONENTS = ["@status", "content-digest", "content-type"] as const;
const CONTENT_TYPE = "application/json; charset=utf-8";

/** The headers that sign a JSON response body with this status (what express sends as its content type). */
export async function responseSignature(keys: SigningKeys, status: number, body: string, now: Date): Promise<Record<string, string>> {
  const key = await keys.current();
  const headers = { "content-type": CONTENT_TYPE, "content-digest": contentDigest(body) };
  const params = signatureParams(COMPONENTS, { created: Math.floor(now.getTime() / 1000), keyid: key.kid });
  const base = signatureBase({ status, headers }, COMPONENTS, params);
  return { ...headers, "signature-input": `sig1=${params}`, signature: `sig1=:${es256(base, key.privateKey).toString("base64")}:` };
}
