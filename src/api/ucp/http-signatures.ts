// The RFC 9421 HTTP Message Signatures and RFC 9530 Content-Digest building blocks the UCP door signs and verifies
// with: its webhooks (webhook-signers.ts), its answers (response-signatures.ts) and agents' requests
// (request-signatures.ts). ES256 only, as UCP asks.
import crypto from "node:crypto";

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
