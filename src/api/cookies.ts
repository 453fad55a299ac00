// Reading request cookies: one tolerant parser, so a malformed Cookie header can never fail a request.

/**
 * The value of cookie `name` in a Cookie header, percent-decoded; undefined when absent or undecodable (a client
 * that sends `%E0%A4%A` gets treated as if it sent no cookie, never a 500).
 */
export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      return undefined;
    }
  }
  return undefined;
}
