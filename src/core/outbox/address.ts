// The one guard for every URL the shop requests on someone else's word (integrators' webhooks, agent platforms' order
// webhooks, agents' profiles): http(s), no credentials, no local name, and public unicast addresses only — checked on
// an IP literal and a name at registration, and again on the address each connection goes to, unless the caller allows
// local receivers (WEBHOOKS_ALLOW_LOCAL=1 and the agent profiles' own switch: tests, local development).
import dns from "node:dns";
import net from "node:net";

// IPv4 and IPv6 rules live in separate lists: a BlockList also matches IPv4 addresses against IPv6 rules (as
// IPv4-mapped addresses), so one list with ::ffff:0:0/96 in it refused every IPv4 address.
const IPV4_SPECIAL = new net.BlockList();
for (const [address, prefix] of [
  ["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["127.0.0.0", 8], ["169.254.0.0", 16], ["172.16.0.0", 12],
  ["192.0.0.0", 24], ["192.0.2.0", 24], ["192.88.99.0", 24], ["192.168.0.0", 16], ["198.18.0.0", 15], ["198.51.100.0", 24],
  ["203.0.113.0", 24], ["224.0.0.0", 4], ["240.0.0.0", 4],
] as const) IPV4_SPECIAL.addSubnet(address, prefix, "ipv4");

/** Global unicast (2000::/3) is the only public IPv6 space; these parts of it are not reachable hosts. */
const IPV6_GLOBAL = new net.BlockList();
IPV6_GLOBAL.addSubnet("2000::", 3, "ipv6");
const IPV6_SPECIAL = new net.BlockList();
// Teredo (an obscured IPv4 inside), benchmarking, ORCHID, documentation (two ranges).
for (const [address, prefix] of [["2001::", 32], ["2001:2::", 48], ["2001:10::", 28], ["2001:db8::", 32], ["3fff::", 20]] as const) {
  IPV6_SPECIAL.addSubnet(address, prefix, "ipv6");
}

/** The eight 16-bit groups of a valid IPv6 address (a trailing dotted IPv4 part becomes the last two). */
function ipv6Groups(address: string): number[] {
  const text = address.split("%")[0]!.toLowerCase().replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_all, a: string, b: string, c: string, d: string) =>
    `${((Number(a) << 8) | Number(b)).toString(16)}:${((Number(c) << 8) | Number(d)).toString(16)}`);
  const [head, tail] = text.split("::") as [string, string | undefined];
  const parse = (part: string | undefined) => (part ? part.split(":").map((group) => parseInt(group, 16)) : []);
  const start = parse(head);
  const end = parse(tail);
  return [...start, ...Array<number>(8 - start.length - end.length).fill(0), ...end];
}

const dotted = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;

/**
 * The IPv4 address an IPv6 address stands for, where one reaches the other: IPv4-mapped (::ffff:a.b.c.d),
 * IPv4-compatible (::a.b.c.d, also :: and ::1), NAT64 (64:ff9b::/96) and 6to4 (2002:aabb:ccdd::/48).
 */
function embeddedIpv4(groups: number[]): string | null {
  const zeros = (from: number, to: number) => groups.slice(from, to).every((group) => group === 0);
  if (zeros(0, 5) && (groups[5] === 0xffff || groups[5] === 0)) return dotted(groups[6]!, groups[7]!);
  if (groups[0] === 0x64 && groups[1] === 0xff9b && zeros(2, 6)) return dotted(groups[6]!, groups[7]!);
  if (groups[0] === 0x2002) return dotted(groups[1]!, groups[2]!);
  return null;
}

/** Whether an IP address is a public unicast address (false for anything that is not an IP address). */
export function isPublicAddress(address: string): boolean {
  if (net.isIPv4(address)) return !IPV4_SPECIAL.check(address, "ipv4");
  if (!net.isIPv6(address)) return false;
  const groups = ipv6Groups(address);
  const ipv4 = embeddedIpv4(groups);
  if (ipv4 !== null) return !IPV4_SPECIAL.check(ipv4, "ipv4");
  const canonical = groups.map((group) => group.toString(16)).join(":");
  return IPV6_GLOBAL.check(canonical, "ipv6") && !IPV6_SPECIAL.check(canonical, "ipv6");
}

/**
 * Whether a host name is answered on the shop's own machine or network rather than by public DNS: localhost and
 * *.localhost, mDNS (*.local), home networks (*.home.arpa), *.internal, and single-label names (resolved through local
 * search domains); trailing dots do not change the name.
 */
export function isLocalName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.+$/, "");
  return !name.includes(".") || /(^|\.)(localhost|local|internal|home\.arpa)$/.test(name);
}

/** The host of a URL as DNS and net see it (IPv6 literals without their brackets). */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, "");
}

/**
 * Why a URL may not be requested, judged on the URL alone (not http/https, credentials in it, a local name or a
 * non-public IP literal), or null. With `allowLocal` only the scheme and credentials count.
 */
export function urlProblem(url: string, allowLocal: boolean): string | null {
  const parsed = URL.parse(url);
  if (!parsed) return "is not a URL";
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return "must be an http or https URL";
  if (parsed.username || parsed.password) return "must not carry credentials";
  if (allowLocal) return null;
  const host = hostOf(parsed);
  if (net.isIP(host)) return isPublicAddress(host) ? null : `points at a private or loopback address (${host})`;
  return isLocalName(host) ? `names a private or loopback host (${host})` : null;
}

/** Resolves a name to every address it has (dns.lookup; tests stand in their own). */
export type Resolve = (hostname: string) => Promise<dns.LookupAddress[]>;

export const resolveAll: Resolve = (hostname) => dns.promises.lookup(hostname, { all: true });

/** Where a connection to a checked address goes: that address, except in tests, which stand a local receiver in for it. */
export type Route = (address: dns.LookupAddress) => dns.LookupAddress;

/**
 * A net lookup that resolves with `resolve` and keeps only public addresses (all of them with `allowLocal`): the check
 * runs on the addresses the connection then uses, so a name cannot be re-pointed between check and connect.
 */
export function guardedLookup(allowLocal: boolean, resolve: Resolve = resolveAll, route?: Route): net.LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const allowed = addresses.filter((entry) => allowLocal || isPublicAddress(entry.address)).map((entry) => (route ? route(entry) : entry));
        const family = options.family === 4 || options.family === 6 ? options.family : 0;
        const usable = family ? allowed.filter((entry) => entry.family === family) : allowed;
        if (!usable.length) {
          const refused = Object.assign(new Error(`${hostname} resolves only to private or loopback addresses`), { code: "EADDRNOTALLOWED" });
          return callback(refused, "", 0);
        }
        if (options.all) return callback(null, usable as unknown as string);
        return callback(null, usable[0]!.address, usable[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, "", 0),
    );
  };
}

/** How long the check waits for DNS: it runs inside the registering tool's transaction. */
const LOOKUP_MS = 2_000;

/**
 * Why a receiver URL is refused (urlProblem, or a name resolving to a non-public address), or null when it is
 * acceptable. A name that does not resolve now (or not within 2 s) is accepted: every delivery checks the address it
 * connects to again.
 */
export async function receiverProblem(url: string, allowLocal: boolean, resolve: Resolve = resolveAll): Promise<string | null> {
  const problem = urlProblem(url, allowLocal);
  if (problem || allowLocal) return problem;
  const host = hostOf(new URL(url));
  if (net.isIP(host)) return null;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<dns.LookupAddress[]>((done) => (timer = setTimeout(() => done([]), LOOKUP_MS)));
  const addresses = await Promise.race([resolve(host).catch(() => []), timeout]).finally(() => clearTimeout(timer));
  const local = addresses.find((entry) => !isPublicAddress(entry.address));
  return local ? `resolves to a private or loopback address (${local.address})` : null;
}
