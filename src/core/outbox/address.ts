// Where an outbound webhook may go: public addresses only (no loopback, private, link-local or other special ranges),
// checked on the address a name resolves to, unless WEBHOOKS_ALLOW_LOCAL=1 (tests, local development).
import dns from "node:dns";
import net from "node:net";

const BLOCKED = new net.BlockList();
for (const [address, prefix] of [
  ["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["127.0.0.0", 8], ["169.254.0.0", 16], ["172.16.0.0", 12],
  ["192.0.0.0", 24], ["192.0.2.0", 24], ["192.168.0.0", 16], ["198.18.0.0", 15], ["198.51.100.0", 24], ["203.0.113.0", 24],
  ["224.0.0.0", 4], ["240.0.0.0", 4],
] as const) BLOCKED.addSubnet(address, prefix, "ipv4");
// IPv4-mapped and -translated IPv6 addresses would reach the IPv4 ranges above, so they are refused as a whole.
for (const [address, prefix] of [["::", 127], ["::ffff:0:0", 96], ["64:ff9b::", 96], ["100::", 64], ["2001:db8::", 32], ["fc00::", 7], ["fe80::", 10], ["ff00::", 8]] as const) {
  BLOCKED.addSubnet(address, prefix, "ipv6");
}

/** Whether an IP address is a public unicast address (false for anything that is not an IP address). */
export function isPublicAddress(address: string): boolean {
  const family = net.isIPv4(address) ? "ipv4" : net.isIPv6(address) ? "ipv6" : null;
  return family !== null && !BLOCKED.check(address, family);
}

/** A dns.lookup that refuses names resolving only to non-public addresses (the check happens on the connected address). */
export function guardedLookup(allowLocal: boolean): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, "", 0);
      const allowed = addresses.filter((entry) => allowLocal || isPublicAddress(entry.address));
      if (!allowed.length) {
        const refused = Object.assign(new Error(`${hostname} resolves only to private or loopback addresses`), { code: "EADDRNOTALLOWED" });
        return callback(refused, "", 0);
      }
      if (options.all) return callback(null, allowed as unknown as string);
      return callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  };
}

/** How long the check waits for DNS: it runs inside the creating tool's transaction. */
const LOOKUP_MS = 2_000;

/**
 * Why a receiver URL is refused (not http/https, credentials in it, an IP literal or a name resolving to a non-public
 * address), or null when it is acceptable. A name that does not resolve now (or not within 2 s) is accepted: every
 * delivery checks the address it connects to again.
 */
export async function receiverProblem(url: string, allowLocal: boolean): Promise<string | null> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "is not a URL";
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return "must be an http or https URL";
  if (parsed.username || parsed.password) return "must not carry credentials";
  if (allowLocal) return null;
  const host = parsed.hostname.replace(/^\[|\]$/g, "");
  if (net.isIP(host)) return isPublicAddress(host) ? null : `points at a private or loopback address (${host})`;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<dns.LookupAddress[]>((resolve) => (timer = setTimeout(() => resolve([]), LOOKUP_MS)));
  const addresses = await Promise.race([dns.promises.lookup(host, { all: true }).catch(() => []), timeout]).finally(() => clearTimeout(timer));
  const local = addresses.find((entry) => !isPublicAddress(entry.address));
  return local ? `resolves to a private or loopback address (${local.address})` : null;
}
