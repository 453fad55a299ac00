// The RFC 9421 / RFC 9530 building blocks of the UCP webhook signers against the RFCs' own examples, and a signature
// made by the signer checked with node's crypto and the public JWK alone.
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { contentDigest, signatureBase, signatureParams } from "../../src/api/ucp/http-signatures.ts";
import { rfc9421Signer, ucpEventRef } from "../../src/api/ucp/webhook-signers.ts";
import type { SigningKeys } from "../../src/tools/keys/signing-keys.ts";

describe("RFC 9530 Content-Digest", () => {
  it("matches the RFC's sha-256 example for {\"hello\": \"world\"}", () => {
    expect(contentDigest('{"hello": "world"}')).toBe("sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:");
  });
});

describe("RFC 9421 signature base", () => {
  it("reproduces the RFC's section 2.5 example base", () => {
    const components = ["@method", "@authority", "@path", "content-digest", "content-length", "content-type"];
    const params = signatureParams(components, { created: 1618884473, keyid: "test-key-rsa-pss" });
    const base = signatureBase(
      {
        method: "POST",
        url: new URL("http://example.com/foo?param=Value&Pet=dog"),
        headers: {
          "content-digest": "sha-512=:WZDPaVn/7XgHaAy8pmojAkGWoRx2UFChF41A2svX+TaPm+AbwAgBWnrIiYllu7BNNyealdVLvRwEmTHWXvJwew==:",
          "content-length": "18",
          "content-type": "application/json",
        },
      },
      components,
      params,
    );
    expect(base).toBe(
      [
        '"@method": POST',
        '"@authority": example.com',
        '"@path": /foo',
        '"content-digest": sha-512=:WZDPaVn/7XgHaAy8pmojAkGWoRx2UFChF41A2svX+TaPm+AbwAgBWnrIiYllu7BNNyealdVLvRwEmTHWXvJwew==:',
        '"content-length": 18',
        '"content-type": application/json',
        '"@signature-params": ("@method" "@authority" "@path" "content-digest" "content-length" "content-type");created=1618884473;keyid="test-key-rsa-pss"',
      ].join("\n"),
    );
  });

  it("derives @query and a non-default port as the RFC says", () => {
    const url = new URL("https://Example.COM:8443/path?param=value&foo=bar&baz=bat%2Dman");
    expect(signatureBase({ method: "get", url, headers: {} }, ["@method", "@authority", "@query"], "()")).toBe(
      ['"@method": GET', '"@authority": example.com:8443', '"@query": ?param=value&foo=bar&baz=bat%2Dman', '"@signature-params": ()'].join("\n"),
    );
  });
});

describe("the RFC 9421 webhook signer", () => {
  it("signs r||s with ES256 that the public JWK verifies, covering the event's headers", async () => {
    const { publicKey, privateKey } = crypto.generateKeyPairSync("ec", { namedCurve: "P-256" });
    const keys = { current: async () => ({ kid: "k1", privateKey, publicJwk: {} }) } as unknown as SigningKeys;
    const eventId = crypto.randomUUID();
    const body = '{"id":"o1"}';
    const headers = await rfc9421Signer(keys, "https://shop.example/.well-known/ucp").headers({
      id: "ignored",
      timestamp: new Date(1_700_000_000_000),
      body,
      url: "https://platform.example/hooks?x=1",
      keyRef: ucpEventRef(eventId, new Date(1_690_000_000_000)),
    });
    expect(headers["webhook-id"]).toBe(eventId);
    expect(headers["webhook-timestamp"]).toBe("1690000000");
    expect(headers["signature-input"]).toBe(
      'sig1=("@method" "@authority" "@path" "@query" "ucp-agent" "content-digest" "content-type" "webhook-id" "webhook-timestamp");created=1700000000;keyid="k1"',
    );
    const base = [
      '"@method": POST',
      '"@authority": platform.example',
      '"@path": /hooks',
      '"@query": ?x=1',
      '"ucp-agent": profile="https://shop.example/.well-known/ucp"',
      `"content-digest": ${contentDigest(body)}`,
      '"content-type": application/json',
      `"webhook-id": ${eventId}`,
      '"webhook-timestamp": 1690000000',
      `"@signature-params": ${headers["signature-input"]!.slice("sig1=".length)}`,
    ].join("\n");
    const signature = Buffer.from(/^sig1=:(.+):$/.exec(headers.signature!)![1]!, "base64");
    expect(signature).toHaveLength(64);
    const jwk = crypto.createPublicKey({ key: publicKey.export({ format: "jwk" }), format: "jwk" });
    expect(crypto.verify("sha256", Buffer.from(base), { key: jwk, dsaEncoding: "ieee-p1363" }, signature)).toBe(true);
  });
});
