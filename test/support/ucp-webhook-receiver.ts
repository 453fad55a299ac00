// A UCP platform's webhook endpoint for tests: records every POST with its raw body and verifies it on its own, with
// the business's public JWKs (as published in its discovery profile), never with the shop's signing code:
// - RFC 9421 (2026-04-08): Content-Digest recomputed, the signature base rebuilt from Signature-Input, ES256 (r||s);
// - detached JWS (2026-01-11): Request-Signature verified over the raw body with jose (b64 false).
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { decodeProtectedHeader, flattenedVerify, importJWK, type JWK } from "jose";

export interface UcpDelivery {
  path: string;
  method: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface UcpReceiver {
  url: string;
  received: UcpDelivery[];
  at(path: string): UcpDelivery[];
  /** Answer the next requests to `path` with these statuses (0: hold the request open); then 200. */
  failNext(path: string, ...statuses: number[]): void;
  close(): Promise<void>;
}

export async function startUcpReceiver(): Promise<UcpReceiver> {
  const received: UcpDelivery[] = [];
  const scripted = new Map<string, number[]>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const path = request.url ?? "/";
      received.push({ path, method: request.method ?? "", headers: request.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() });
      const status = scripted.get(path)?.shift() ?? 200;
      if (status !== 0) response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ ucp: { version: "2026-04-08", status: "success" } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    at: (path) => received.filter((entry) => entry.path === path),
    failNext: (path, ...statuses) => void scripted.set(path, [...(scripted.get(path) ?? []), ...statuses]),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function single(headers: http.IncomingHttpHeaders, name: string): string {
  const value = headers[name];
  if (typeof value !== "string") throw new Error(`missing header ${name}`);
  return value;
}

/** Verifies an RFC 9421 signed delivery (label sig1); returns the covered components, throws with the reason otherwise. */
export function verifyRfc9421(delivery: UcpDelivery, keys: readonly JWK[]): string[] {
  const digest = `sha-256=:${crypto.createHash("sha256").update(delivery.body, "utf8").digest("base64")}:`;
  if (single(delivery.headers, "content-digest") !== digest) throw new Error("Content-Digest does not match the body");
  const input = /^sig1=(\((?:"[^"]*"(?: "[^"]*")*)?\)(?:;[a-z]+=(?:"[^"]*"|\d+))*)$/.exec(single(delivery.headers, "signature-input"));
  if (!input) throw new Error("Signature-Input is not one sig1 entry");
  const params = input[1]!;
  const components = [...params.slice(1, params.indexOf(")")).matchAll(/"([^"]*)"/g)].map((match) => match[1]!);
  const keyid = /;keyid="([^"]*)"/.exec(params)?.[1];
  const jwk = keys.find((key) => key.kid === keyid);
  if (!jwk) throw new Error(`key_not_found: ${keyid}`);
  const url = new URL(delivery.path, "http://placeholder");
  const lines = components.map((name) => {
    let value: string;
    if (name === "@method") value = delivery.method;
    else if (name === "@authority") value = single(delivery.headers, "host");
    else if (name === "@path") value = url.pathname;
    else if (name === "@query") value = url.search || "?";
    else value = single(delivery.headers, name).trim();
    return `"${name}": ${value}`;
  });
  lines.push(`"@signature-params": ${params}`);
  const signature = /^sig1=:([A-Za-z0-9+/=]+):$/.exec(single(delivery.headers, "signature"))?.[1];
  if (!signature) throw new Error("Signature is not one sig1 byte sequence");
  const publicKey = crypto.createPublicKey({ key: jwk as crypto.JsonWebKey, format: "jwk" });
  const ok = crypto.verify("sha256", Buffer.from(lines.join("\n")), { key: publicKey, dsaEncoding: "ieee-p1363" }, Buffer.from(signature, "base64"));
  if (!ok) throw new Error("signature_invalid");
  return components;
}

/** Verifies the detached JWS of a 2026-01-11 delivery over its raw body; returns its protected header. */
export async function verifyDetachedJws(delivery: UcpDelivery, keys: readonly JWK[]): Promise<Record<string, unknown>> {
  const [protectedHeader, payload, signature] = single(delivery.headers, "request-signature").split(".");
  if (payload !== "" || !protectedHeader || !signature) throw new Error("Request-Signature is not a detached compact JWS");
  const header = decodeProtectedHeader(`${protectedHeader}..${signature}`);
  const jwk = keys.find((key) => key.kid === header.kid);
  if (!jwk) throw new Error(`key_not_found: ${String(header.kid)}`);
  const key = await importJWK(jwk, "ES256");
  await flattenedVerify({ protected: protectedHeader, payload: new TextEncoder().encode(delivery.body), signature }, key, { algorithms: ["ES256"] });
  return header as Record<string, unknown>;
}
