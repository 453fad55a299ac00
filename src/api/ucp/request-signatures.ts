// Verifying an agent's signed request (UCP 2026-04-08 "Message Signatures": RFC 9421 with an RFC 9530 Content-Digest,
// ES256 or ES384 by the key's curve, the key from the agent profile's signing_keys). A verified signature turns the
// profile URL of UCP-Agent from a claim into a proof; the shop's agent-access setting decides whether one is required.
import crypto from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Request } from "express";
import { sfString, signatureBase } from "./http-signatures.ts";
import { parseDictionary, StructuredFieldError, type BareItem, type Member } from "./agent-header.ts";
import { UcpError } from "./errors.ts";
import type { AgentKey } from "./agent-profiles.ts";

/** What verification needs of an HTTP request: lower-cased headers and the raw body bytes. */
export interface SignedRequest {
  method: string;
  /** The authorities the request may have been signed for: its Host, and the public base URL's host behind a proxy. */
  authorities: string[];
  path: string;
  query: string;
  headers: Record<string, string | undefined>;
  body: Buffer | undefined;
}

/** The body parsers' `verify` hook: keeps the raw bytes, which the Content-Digest covers. */
export function keepRawBody(req: IncomingMessage, _res: unknown, bytes: Buffer): void {
  (req as IncomingMessage & { rawBody?: Buffer }).rawBody = bytes;
}

/** An express request as verification reads it (the raw body kept by keepRawBody). */
export function signedRequestOf(req: Request, publicBaseUrl: string): SignedRequest {
  const target = new URL(req.originalUrl, "http://placeholder");
  const headers: SignedRequest["headers"] = {};
  for (const [name, value] of Object.entries(req.headers)) headers[name] = Array.isArray(value) ? value.join(", ") : value;
  const authorities = [...new Set([req.headers.host, new URL(publicBaseUrl).host].filter((host): host is string => Boolean(host)))];
  return { method: req.method, authorities, path: target.pathname, query: target.search, headers, body: (req as Request & { rawBody?: Buffer }).rawBody };
}

/** Whether the request carries a signature at all (Signature-Input or Signature). */
export function isSigned(request: Pick<SignedRequest, "headers">): boolean {
  return request.headers["signature-input"] !== undefined || request.headers.signature !== undefined;
}

const CURVES: Record<string, { hash: string; bytes: number }> = { "P-256": { hash: "sha256", bytes: 64 }, "P-384": { hash: "sha384", bytes: 96 } };
const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);
/** How far a signature's `created` may be from the shop's clock, either way (seconds). */
export const SIGNATURE_SKEW_SECONDS = 300;

/**
 * Verifies the request's signature with one of `keys` at the shop's time `now`; returns the key id, or throws the UCP
 * signature error.
 */
export function verifyRequest(request: SignedRequest, keys: readonly AgentKey[], now: Date): string {
  const input = dictionary(request.headers["signature-input"], "Signature-Input");
  const signatures = dictionary(request.headers.signature, "Signature");
  // Several signatures may be present; the one labelled sig1 (UCP's label), else the first.
  const label = input.has("sig1") ? "sig1" : [...input.keys()][0];
  const described = label === undefined ? undefined : input.get(label);
  const value = label === undefined ? undefined : signatures.get(label)?.item;
  if (!described || !(value instanceof Uint8Array)) throw new UcpError(401, "signature_missing", "The request needs Signature-Input and Signature with the same label.");
  if (!Array.isArray(described.item) || !described.item.every((item) => typeof item === "string")) {
    throw new UcpError(401, "signature_invalid", "Signature-Input must list the covered components as strings.");
  }
  const components = described.item as string[];
  const keyid = described.params.get("keyid");
  if (typeof keyid !== "string") throw new UcpError(401, "signature_invalid", "Signature-Input needs a keyid.");
  if (described.params.has("alg")) throw new UcpError(400, "algorithm_unsupported", "UCP derives the algorithm from the key's curve; alg is not accepted.");
  checkTimes(described.params, now);
  for (const name of required(request)) {
    if (!components.includes(name)) throw new UcpError(401, "signature_invalid", `The signature must cover ${name}.`);
  }
  if (request.body?.length) checkDigest(request);
  const key = keys.find((candidate) => candidate.kid === keyid);
  if (!key) throw new UcpError(401, "key_not_found", `The agent's profile has no signing key "${keyid}".`);
  const curve = CURVES[key.crv];
  if (!curve) throw new UcpError(400, "algorithm_unsupported", `Keys on curve ${key.crv} are not supported; use P-256 (ES256) or P-384.`);
  let publicKey: crypto.KeyObject;
  try {
    publicKey = crypto.createPublicKey({ key: { kty: "EC", crv: key.crv, x: key.x, y: key.y }, format: "jwk" });
  } catch {
    throw new UcpError(401, "signature_invalid", `The signing key "${keyid}" is not a valid ${key.crv} key.`);
  }
  const params = serializeParams(components, described.params);
  const verified =
    value.length === curve.bytes &&
    request.authorities.some((authority) => {
      let base: string;
      try {
        const url = new URL(`${request.path}${request.query}`, `https://${authority}`);
        base = signatureBase({ method: request.method, url, headers: present(request.headers) }, components, params);
      } catch {
        return false;
      }
      return crypto.verify(curve.hash, Buffer.from(base, "utf8"), { key: publicKey, dsaEncoding: "ieee-p1363" }, value);
    });
  if (!verified) throw new UcpError(401, "signature_invalid", `Request signature verification failed for key kid=${keyid}.`);
  return keyid;
}

/**
 * UCP leaves `created` optional (replay protection is the idempotency store's) and freshness to the verifier (RFC 9421
 * §3.2.1): a signature that names its time must be fresh, or a captured request could be replayed for ever.
 */
function checkTimes(params: ReadonlyMap<string, BareItem>, now: Date): void {
  const seconds = now.getTime() / 1000;
  const created = params.get("created");
  const expires = params.get("expires");
  if (created !== undefined) {
    if (typeof created !== "number" || !Number.isInteger(created)) throw new UcpError(401, "signature_invalid", "The signature's created must be an integer (seconds since 1970).");
    if (Math.abs(seconds - created) > SIGNATURE_SKEW_SECONDS) {
      throw new UcpError(401, "signature_invalid", `The signature was created more than ${SIGNATURE_SKEW_SECONDS / 60} minutes from the shop's clock; sign each request when it is sent.`);
    }
  }
  if (expires !== undefined) {
    if (typeof expires !== "number" || !Number.isInteger(expires)) throw new UcpError(401, "signature_invalid", "The signature's expires must be an integer (seconds since 1970).");
    if (expires <= seconds) throw new UcpError(401, "signature_invalid", "The signature has expired.");
  }
}

/** The components a UCP request signature must cover (signatures.md, "REST Request Signing"). */
function required(request: SignedRequest): string[] {
  const names = ["@method", "@authority", "@path"];
  if (request.query && request.query !== "?") names.push("@query");
  if (request.headers["ucp-agent"] !== undefined) names.push("ucp-agent");
  if (STATE_CHANGING.has(request.method.toUpperCase()) && request.headers["idempotency-key"] !== undefined) names.push("idempotency-key");
  if (request.body?.length) names.push("content-digest", "content-type");
  return names;
}

/** RFC 9530: the sha-256 member of Content-Digest must be the digest of the raw body bytes. */
function checkDigest(request: SignedRequest): void {
  const digests = dictionary(request.headers["content-digest"], "Content-Digest", 400, "digest_mismatch");
  const given = digests.get("sha-256")?.item;
  if (!(given instanceof Uint8Array)) throw new UcpError(400, "digest_mismatch", "Content-Digest needs a sha-256 member for the body.");
  const actual = crypto.createHash("sha256").update(request.body!).digest();
  // timingSafeEqual throws on buffers of different lengths: a digest of another length is simply not this body's.
  if (given.length !== actual.length || !crypto.timingSafeEqual(actual, Buffer.from(given))) throw new UcpError(400, "digest_mismatch", "Content-Digest does not match the request body.");
}

function dictionary(header: string | undefined, name: string, status = 401, code = "signature_missing"): Map<string, Member> {
  if (header === undefined) throw new UcpError(status, code, `The request has no ${name} header.`);
  if (header.length > 8192) throw new UcpError(400, "signature_invalid", `${name} is too long.`);
  try {
    return parseDictionary(header);
  } catch (error) {
    if (error instanceof StructuredFieldError) throw new UcpError(status === 401 ? 401 : 400, status === 401 ? "signature_invalid" : code, `${name} is not a structured-field dictionary (${error.message}).`);
    throw error;
  }
}

/** The signature parameters as RFC 8941 serialises them: what the signer signed as "@signature-params". */
function serializeParams(components: readonly string[], params: ReadonlyMap<string, BareItem>): string {
  let text = `(${components.map(sfString).join(" ")})`;
  for (const [name, value] of params) text += value === true ? `;${name}` : `;${name}=${bare(value)}`;
  return text;
}

function bare(value: BareItem): string {
  if (typeof value === "string") return sfString(value);
  if (typeof value === "number") return String(value);
  if (typeof value === "boolean") return value ? "?1" : "?0";
  if (value instanceof Uint8Array) return `:${Buffer.from(value).toString("base64")}:`;
  return value.token;
}

function present(headers: SignedRequest["headers"]): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined));
}
