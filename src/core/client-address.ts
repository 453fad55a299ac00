// The client's address behind proxies: which peers may speak for it in X-Forwarded-For (TRUST_PROXY), one rule for
// every door (express's req.ip, the socket.io handshake).
import type { IncomingMessage } from "node:http";
import proxyaddr from "proxy-addr";

/** Whether the peer at `address`, `hop` steps from this server (0 = the socket's peer), is a proxy we believe. */
export type TrustProxy = (address: string, hop: number) => boolean;

const compiled = new Map<string, TrustProxy>();

/**
 * TRUST_PROXY: a hop count ("1": the one proxy in front of us), or a comma-separated list of addresses, CIDR ranges and
 * the names loopback, linklocal and uniquelocal; "none" believes no proxy. Default "loopback". Throws on anything else.
 */
export function trustProxy(setting: string): TrustProxy {
  let trust = compiled.get(setting);
  if (trust) return trust;
  if (setting === "none") {
    trust = () => false;
  } else if (/^\d+$/.test(setting)) {
    const hops = Number(setting);
    trust = (_address, hop) => hop < hops;
  } else {
    const list = setting.split(",").map((entry) => entry.trim()).filter(Boolean);
    try {
      trust = proxyaddr.compile(list);
    } catch (error) {
      throw new Error(`TRUST_PROXY must be a hop count, "none", or addresses and CIDR ranges separated by commas, got "${setting}" (${(error as Error).message})`, { cause: error });
    }
  }
  compiled.set(setting, trust);
  return trust;
}

/** The client's address of a request or socket.io handshake: the nearest address in X-Forwarded-For no trusted proxy added. */
export function clientAddress(req: IncomingMessage, setting: string): string {
  return proxyaddr(req, trustProxy(setting));
}
