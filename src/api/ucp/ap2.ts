// The AP2 Mandates extension of UCP 2026-04-08 (dev.ucp.shopping.ap2_mandate): our zod reading of its shapes, the
// shop's merchant_authorization (a detached JWS over the JCS-canonical checkout without `ap2`), and the verification of
// an agent's checkout mandate (an SD-JWT with key binding, RFC 9901) before a completion. The AP2 credential's own
// claims are not in the UCP repository; what we read of them is the narrow layout described in docs/ucp.md ("AP2").
import crypto from "node:crypto";
import { CompactSign, compactVerify, decodeProtectedHeader, errors, importJWK, jwtVerify, type JWTPayload } from "jose";
import { z } from "zod";
import { canonicalJson } from "../../core/canonical-json.ts";
import { Refused } from "../../core/errors.ts";
import type { PublicJwk, SigningKeys } from "../../tools/keys/signing-keys.ts";
import { AP2 } from "./capabilities.ts";
import type { AgentKey } from "./agent-profiles.ts";
import { checkoutResponse, VERSION } from "./v2026-04-08.ts";


// ---------- our reading of the shapes ----------

const MERCHANT_AUTHORIZATION = /^[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]+$/;

/** `ap2` of a checkout response: the shop's detached JWS (`<header>..<signature>`). */
export const ap2Response = z.object({ merchant_authorization: z.string().max(2048).regex(MERCHANT_AUTHORIZATION) });

/** A 2026-04-08 checkout response while AP2 is active. */
export const checkoutWithAp2 = checkoutResponse.extend({ ap2: ap2Response });

/**
 * `ap2` of a complete request. The schema's pattern allows no dots after a `~`, where an SD-JWT+KB (RFC 9901) carries
 * its KB-JWT, so we read the RFC's layout: JWT, disclosures and KB-JWT joined by `~`, in base64url characters and dots.
 */
export const ap2CompleteRequest = z.looseObject({
  ap2: z
    .looseObject({ checkout_mandate: z.string().max(65536).regex(/^[A-Za-z0-9_.~-]*$/).optional() })
    .optional()
    .describe("complete_checkout with AP2 negotiated: checkout_mandate, the buyer's SD-JWT+kb mandate."),
});

/** The error codes of the extension (all answered as messages on the session, see docs/ucp.md). */
export type Ap2Code = "mandate_required" | "agent_missing_key" | "mandate_invalid_signature" | "mandate_expired" | "mandate_scope_mismatch" | "merchant_authorization_invalid";

/** A refused completion: a business outcome, the session answered with this as its first error message. */
function refuse(code: Ap2Code, detail: string): Refused {
  return new Refused(code, detail);
}

/** What a request with AP2 active needs: the shop's keys, the agent's, who the mandate must name, the clock. */
export interface Ap2Context {
  shopKeys: SigningKeys;
  agentKeys: readonly AgentKey[];
  /** The KB-JWT's `aud` must be one of these: the shop's base URL or its profile URL. */
  audiences: readonly string[];
  now: () => Date;
}

// ---------- merchant_authorization ----------

const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64url");

/** The checkout declaring AP2 in its envelope and signed: `ap2.merchant_authorization` over the body without `ap2`. */
export async function authorize(keys: SigningKeys, checkout: Record<string, unknown>, version: string = VERSION): Promise<Record<string, unknown>> {
  const declared = (ucp: { capabilities?: Record<string, unknown> }) => ({ ...ucp, capabilities: { ...ucp.capabilities, [AP2]: [{ version }] } });
  const payload = Object.fromEntries(
    Object.entries(checkout)
      .filter(([name]) => name !== "ap2")
      .map(([name, value]) => [name, name === "ucp" && value && typeof value === "object" ? declared(value) : value]),
  );
  const key = await keys.current();
  const jws = await new CompactSign(Buffer.from(canonicalJson(payload), "utf8")).setProtectedHeader({ alg: "ES256", kid: key.kid }).sign(key.privateKey);
  const [header, , signature] = jws.split(".");
  return { ...payload, ap2: { merchant_authorization: `${header}..${signature}` } };
}

/** Whether the checkout's `ap2.merchant_authorization` is a valid signature of one of these (the shop's) keys. */
export async function merchantAuthorized(checkout: Record<string, unknown>, keys: readonly PublicJwk[]): Promise<boolean> {
  const jws = (checkout.ap2 as { merchant_authorization?: unknown } | undefined)?.merchant_authorization;
  if (typeof jws !== "string" || !MERCHANT_AUTHORIZATION.test(jws)) return false;
  const [header, , signature] = jws.split(".");
  const { ap2: _ap2, ...payload } = checkout;
  const compact = `${header}.${b64(canonicalJson(payload))}.${signature}`;
  try {
    const { kid } = decodeProtectedHeader(compact);
    const jwk = keys.find((candidate) => candidate.kid === kid);
    if (!jwk) return false;
    await compactVerify(compact, await importJWK({ kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y }, "ES256"), { algorithms: ["ES256"] });
    return true;
  } catch {
    return false;
  }
}

// ---------- the checkout mandate ----------

const ALGORITHMS: Record<string, string> = { "P-256": "ES256", "P-384": "ES384", "P-521": "ES512" };
const KB_MAX_AGE_SECONDS = 300;

const disclosure = z.tuple([z.string(), z.string(), z.unknown()]);
const issuerClaims = z.looseObject({
  _sd: z.array(z.string()).max(100).optional(),
  _sd_alg: z.string().optional(),
  cnf: z.looseObject({ jwk: z.looseObject({ kty: z.literal("EC"), crv: z.string(), x: z.string(), y: z.string() }) }),
});
const kbClaims = z.looseObject({ nonce: z.string().min(1), sd_hash: z.string() });

const digest = (text: string) => crypto.createHash("sha256").update(text, "ascii").digest("base64url");

/**
 * Verifies `ap2.checkout_mandate` of a complete body and answers the checkout it embeds: the SD-JWT signed by a key of
 * the agent profile's signing_keys, not expired, its disclosures referenced by its `_sd`, and a KB-JWT signed by the
 * `cnf` key over it (`sd_hash`), fresh and addressed to this shop. Throws the extension's refusal otherwise.
 */
export async function verifyMandate(context: Ap2Context, body: unknown): Promise<Record<string, unknown>> {
  const read = ap2CompleteRequest.safeParse(body);
  const mandate = read.success ? read.data.ap2?.checkout_mandate : undefined;
  if (!read.success && body && typeof body === "object" && "ap2" in body) throw refuse("mandate_invalid_signature", "ap2.checkout_mandate is not an SD-JWT (RFC 9901).");
  if (!mandate) throw refuse("mandate_required", "AP2 is negotiated: completing needs ap2.checkout_mandate, the buyer's signed mandate for this checkout.");
  if (context.agentKeys.length === 0) throw refuse("agent_missing_key", "The agent profile publishes no EC key in signing_keys to verify the mandate with.");

  const parts = mandate.split("~");
  const [issuerJwt, ...rest] = parts;
  const kbJwt = rest.pop();
  if (!issuerJwt || !kbJwt || parts.length < 2) throw refuse("mandate_invalid_signature", "The checkout mandate must be an SD-JWT with a key binding JWT (<JWT>~<disclosures>~<KB-JWT>).");
  const now = context.now();

  const claims = await verifyIssuerJwt(context.agentKeys, issuerJwt, now);
  const disclosed = disclose(claims, rest.filter((entry) => entry !== ""));
  await verifyKeyBinding(context, claims, kbJwt, `${parts.slice(0, -1).join("~")}~`, now);

  const checkout = disclosed.checkout;
  if (!checkout || typeof checkout !== "object" || Array.isArray(checkout)) throw refuse("mandate_scope_mismatch", "The checkout mandate embeds no checkout (claim `checkout`).");
  return checkout as Record<string, unknown>;
}

/** The SD-JWT's payload, verified with the agent key its header names (by kid, else by its algorithm's curve). */
async function verifyIssuerJwt(agentKeys: readonly AgentKey[], jwt: string, now: Date): Promise<z.infer<typeof issuerClaims>> {
  let header: { alg?: string; kid?: string };
  try {
    header = decodeProtectedHeader(jwt);
  } catch {
    throw refuse("mandate_invalid_signature", "The checkout mandate's JWT does not decode.");
  }
  const candidates = agentKeys.filter((key) => (header.kid === undefined || key.kid === header.kid) && ALGORITHMS[key.crv] === header.alg);
  if (candidates.length === 0) throw refuse("agent_missing_key", `No key of the agent profile's signing_keys matches the mandate (kid ${JSON.stringify(header.kid ?? null).slice(0, 80)}, alg ${String(header.alg).slice(0, 10)}).`);
  let payload: JWTPayload | undefined;
  for (const key of candidates) {
    try {
      payload = (await jwtVerify(jwt, await importJWK({ kty: key.kty, crv: key.crv, x: key.x, y: key.y }, header.alg), { algorithms: [header.alg!], currentDate: now })).payload;
      break;
    } catch (error) {
      if (error instanceof errors.JWTExpired) throw refuse("mandate_expired", "The checkout mandate has expired (exp).");
    }
  }
  if (!payload) throw refuse("mandate_invalid_signature", "The checkout mandate's signature does not verify with the agent's key.");
  const parsed = issuerClaims.safeParse(payload);
  if (!parsed.success) throw refuse("mandate_invalid_signature", "The checkout mandate has no holder key (cnf.jwk, EC) for its key binding.");
  if (parsed.data._sd_alg !== undefined && parsed.data._sd_alg !== "sha-256") throw refuse("mandate_invalid_signature", "The checkout mandate's _sd_alg must be sha-256.");
  return parsed.data;
}

/** The payload with its disclosures in place: each must be an object-property disclosure its `_sd` lists, once. */
function disclose(claims: z.infer<typeof issuerClaims>, disclosures: readonly string[]): Record<string, unknown> {
  const { _sd: digests = [], _sd_alg: _alg, ...out } = claims as Record<string, unknown> & z.infer<typeof issuerClaims>;
  const seen = new Set<string>();
  for (const entry of disclosures) {
    const hash = digest(entry);
    let parsed: z.infer<typeof disclosure> | undefined;
    try {
      parsed = disclosure.parse(JSON.parse(Buffer.from(entry, "base64url").toString("utf8")));
    } catch {
      parsed = undefined;
    }
    const name = parsed?.[1];
    if (!parsed || !digests.includes(hash) || seen.has(hash) || name === "_sd" || name === "..." || (name !== undefined && name in out)) {
      throw refuse("mandate_invalid_signature", "A disclosure of the checkout mandate is malformed, repeated or not referenced by its _sd.");
    }
    seen.add(hash);
    out[parsed[1]] = parsed[2];
  }
  return out;
}

/** The KB-JWT: typ kb+jwt, signed by the SD-JWT's cnf key, fresh, for this shop, over exactly this SD-JWT (sd_hash). */
async function verifyKeyBinding(context: Ap2Context, claims: z.infer<typeof issuerClaims>, kbJwt: string, presented: string, now: Date): Promise<void> {
  const { kty, crv, x, y } = claims.cnf.jwk;
  const alg = ALGORITHMS[crv];
  let payload: JWTPayload;
  try {
    if (!alg) throw new Error("curve");
    const key = await importJWK({ kty, crv, x, y }, alg);
    payload = (await jwtVerify(kbJwt, key, { typ: "kb+jwt", algorithms: [alg], audience: [...context.audiences], maxTokenAge: KB_MAX_AGE_SECONDS, clockTolerance: 60, currentDate: now })).payload;
  } catch (error) {
    if (error instanceof errors.JWTExpired) throw refuse("mandate_expired", "The checkout mandate's key binding JWT is too old (iat more than 5 minutes ago).");
    throw refuse("mandate_invalid_signature", "The checkout mandate's key binding JWT does not verify (typ kb+jwt, the cnf key, aud naming this shop, iat).");
  }
  const kb = kbClaims.safeParse(payload);
  if (!kb.success || kb.data.sd_hash !== digest(presented)) throw refuse("mandate_invalid_signature", "The key binding JWT's sd_hash or nonce does not match the presented SD-JWT.");
}

// ---------- terms ----------

const termsReading = z.looseObject({
  id: z.string(),
  currency: z.string(),
  totals: z.array(z.looseObject({ type: z.string(), amount: z.number() })),
  line_items: z.array(z.looseObject({ id: z.string(), item: z.looseObject({ id: z.string(), price: z.number() }), quantity: z.number() })),
});

/** The terms a mandate binds (UCP: id, totals, line items; the currency too), canonical; null when it has none. */
function termsOf(checkout: unknown): string | null {
  const parsed = termsReading.safeParse(checkout);
  if (!parsed.success) return null;
  const { id, currency, totals, line_items } = parsed.data;
  return canonicalJson({
    id,
    currency,
    totals: totals.map((entry) => [entry.type, entry.amount]),
    line_items: line_items.map((line) => [line.id, line.item.id, line.item.price, line.quantity]),
  });
}

/**
 * The whole check of a completion with AP2 active, in the spec's order: the mandate, the shop's own signature on the
 * checkout it embeds, and its terms against the session as it stands (`current`, the checkout as we answer it now).
 */
export async function checkMandate(context: Ap2Context, body: unknown, current: unknown): Promise<void> {
  const embedded = await verifyMandate(context, body);
  if (!(await merchantAuthorized(embedded, await context.shopKeys.published()))) {
    throw refuse("merchant_authorization_invalid", "The checkout in the mandate does not carry a valid merchant_authorization of this shop.");
  }
  const agreed = termsOf(embedded);
  if (agreed === null || agreed !== termsOf(current)) {
    throw refuse("mandate_scope_mismatch", "The mandate is bound to another checkout or to other terms (id, line items, totals) than this session has now.");
  }
}
