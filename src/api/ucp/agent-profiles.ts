// Agent (platform) profiles named by UCP-Agent: fetched over HTTPS without redirects, within one deadline for the whole
// fetch (a slot, DNS, connection, headers and body) and a size cap, only from public addresses (the shop's one outbound
// guard, src/core/outbox/address.ts; the connection is pinned to the address that was checked, so DNS cannot swap it
// afterwards), a few at a time, and kept in a fixed-size cache for at least 60 s, failures included, so unknown agents
// cost a bounded amount of work. The order webhook URL a profile names passes the same guard as every webhook
// receiver, or is ignored.
import http from "node:http";
import https from "node:https";
import net from "node:net";
import { z } from "zod";
import { hostOf, isPublicAddress, receiverProblem, resolveAll, urlProblem } from "../../core/outbox/address.ts";
import { declaredCapabilities } from "./capabilities.ts";

export const PROFILE_TTL_MS = 5 * 60 * 1000;
const FAILURE_TTL_MS = 60 * 1000;
const MAX_ENTRIES = 1000;
const MAX_BYTES = 64 * 1024;
/** The whole fetch, waiting for a slot included: a profile that trickles its bytes is cut off here. */
export const PROFILE_DEADLINE_MS = 3000;
/** Profiles fetched at once by this process; more wait for a slot until their deadline. */
export const MAX_PROFILE_FETCHES = 16;

export interface AgentProfile {
  url: string;
  /** The protocol version the profile declares. */
  version: string;
  /** What the order records as the agent: the profile's own name when it gives one, else its host. */
  name: string;
  /** Where the agent wants order events: its order capability's `config.webhook_url`, if it gives an http(s) one. */
  webhookUrl?: string;
  /** The capabilities it declares by name with their versions (2026-04-08 layout), or null when it declares none. */
  capabilities: Map<string, string[]> | null;
  /** The EC public keys its requests are signed with (`keys`, before 2026-08-25 `signing_keys`); entries that are not EC JWKs are left out. */
  signingKeys: AgentKey[];
}

export interface AgentKey {
  kid: string;
  kty: "EC";
  crv: string;
  x: string;
  y: string;
}

const agentKey = z.looseObject({ kid: z.string().min(1).max(200), kty: z.literal("EC"), crv: z.string().max(20), x: z.string().max(200), y: z.string().max(200) });

/** The usable entries of a profile's signing_keys (at most 20). */
function signingKeysOf(value: unknown): AgentKey[] {
  if (!Array.isArray(value)) return [];
  return value.slice(0, 20).flatMap((entry) => {
    const parsed = agentKey.safeParse(entry);
    return parsed.success ? [{ kid: parsed.data.kid, kty: "EC" as const, crv: parsed.data.crv, x: parsed.data.x, y: parsed.data.y }] : [];
  });
}

/** Why a profile cannot be used: the UCP negotiation error code and its HTTP status. */
export class ProfileError extends Error {
  readonly code: "invalid_profile_url" | "profile_unreachable" | "profile_malformed";
  readonly status: number;
  constructor(code: ProfileError["code"], detail: string) {
    super(detail);
    this.code = code;
    this.status = code === "invalid_profile_url" ? 400 : code === "profile_unreachable" ? 424 : 422;
  }
}

const profileSchema = z.looseObject({
  name: z.string().min(1).max(100).optional(),
  signing_keys: z.unknown().optional(),
  // 2026-08-25 publishes them as the JWK set `keys`.
  keys: z.unknown().optional(),
  ucp: z.looseObject({ version: z.string().regex(/^\d{4}-\d{2}-\d{2}$/) }),
});

/** No slot came free before the deadline: the shop is busy, not the agent's profile at fault, so it is not cached. */
class ProfileBusy extends ProfileError {
  constructor() {
    super("profile_unreachable", "Too many agent profiles are being fetched at once; try again shortly.");
  }
}

/** At most `size` holders at once; a waiter gives up when its signal aborts. */
class Slots {
  private free: number;
  private readonly waiting = new Set<() => void>();

  constructor(size: number) {
    this.free = size;
  }

  /** Resolves with the slot's release once one is free; rejects when `signal` aborts first. */
  take(signal: AbortSignal): Promise<() => void> {
    if (this.free > 0) {
      this.free--;
      return Promise.resolve(this.release());
    }
    return new Promise((resolve, reject) => {
      const grant = () => {
        signal.removeEventListener("abort", abort);
        resolve(this.release());
      };
      const abort = () => {
        this.waiting.delete(grant);
        reject(new ProfileBusy());
      };
      if (signal.aborted) return abort();
      this.waiting.add(grant);
      signal.addEventListener("abort", abort, { once: true });
    });
  }

  private release(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.values().next().value;
      if (next) {
        this.waiting.delete(next);
        next();
      } else {
        this.free++;
      }
    };
  }
}

interface Entry {
  expires: number;
  profile?: AgentProfile;
  error?: ProfileError;
}

export class ProfileFetcher {
  private readonly allowLocal: boolean;
  private readonly allowLocalWebhooks: boolean;
  private readonly cache = new Map<string, Entry>();
  private readonly pending = new Map<string, Promise<AgentProfile>>();
  private readonly slots = new Slots(MAX_PROFILE_FETCHES);

  /**
   * `allowLocal` (UCP_ALLOW_LOCAL_PROFILES=1) permits http and loopback/private profile addresses, `allowLocalWebhooks`
   * (WEBHOOKS_ALLOW_LOCAL=1) such order webhook URLs, for tests and development.
   */
  constructor(allowLocal: boolean, allowLocalWebhooks: boolean) {
    this.allowLocal = allowLocal;
    this.allowLocalWebhooks = allowLocalWebhooks;
  }

  /** The profile at `url`, from the cache or fetched; throws ProfileError. */
  async get(url: string): Promise<AgentProfile> {
    const cached = this.cache.get(url);
    if (cached && cached.expires > Date.now()) {
      // Refresh its place in the LRU order.
      this.cache.delete(url);
      this.cache.set(url, cached);
      if (cached.error) throw cached.error;
      return cached.profile!;
    }
    let running = this.pending.get(url);
    if (!running) {
      running = this.fetch(url).then(
        (profile) => this.remember(url, { expires: Date.now() + PROFILE_TTL_MS, profile }, profile),
        (error: unknown) => {
          const failure = error instanceof ProfileError ? error : new ProfileError("profile_unreachable", "The agent profile could not be fetched.");
          if (!(failure instanceof ProfileBusy)) this.remember(url, { expires: Date.now() + FAILURE_TTL_MS, error: failure }, undefined);
          throw failure;
        },
      );
      this.pending.set(url, running);
      void running.finally(() => this.pending.delete(url)).catch(() => undefined);
    }
    return running;
  }

  private remember<T>(url: string, entry: Entry, value: T): T {
    this.cache.delete(url);
    this.cache.set(url, entry);
    while (this.cache.size > MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
    return value;
  }

  private async fetch(raw: string): Promise<AgentProfile> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new ProfileError("invalid_profile_url", "The agent profile URL is not a URL.");
    }
    if (url.protocol !== "https:" && !(this.allowLocal && url.protocol === "http:")) {
      throw new ProfileError("invalid_profile_url", "Agent profiles must be served over HTTPS.");
    }
    const problem = urlProblem(raw, this.allowLocal);
    if (problem) throw new ProfileError("invalid_profile_url", `The agent profile URL ${problem}.`);
    const deadline = AbortSignal.timeout(PROFILE_DEADLINE_MS);
    const release = await this.slots.take(deadline);
    let text: string;
    try {
      text = await this.download(url, deadline);
    } finally {
      release();
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ProfileError("profile_malformed", "The agent profile is not JSON.");
    }
    const parsed = profileSchema.safeParse(json);
    if (!parsed.success) throw new ProfileError("profile_malformed", "The agent profile has no ucp.version.");
    const name = parsed.data.name?.replace(/[^\x20-\x7e]/g, "").trim() || url.host;
    const named = orderWebhookUrl(parsed.data.ucp.capabilities);
    // A receiver the outbox would refuse is ignored now, so no session stores it and the agent gets no events there.
    const webhookUrl = named && !(await receiverProblem(named, this.allowLocalWebhooks)) ? named : undefined;
    return { url: raw, version: parsed.data.ucp.version, name, ...(webhookUrl ? { webhookUrl } : {}), signingKeys: signingKeysOf(parsed.data.keys ?? parsed.data.signing_keys), capabilities: declaredCapabilities(parsed.data.ucp.capabilities) };
  }

  /** The profile's text: its host resolved and checked, then fetched from that address, all before `deadline`. */
  private async download(url: URL, deadline: AbortSignal): Promise<string> {
    const host = hostOf(url);
    let addresses: Array<{ address: string; family: number }>;
    try {
      addresses = net.isIP(host) ? [{ address: host, family: net.isIPv6(host) ? 6 : 4 }] : await beforeDeadline(resolveAll(host), deadline);
    } catch (error) {
      if (error instanceof ProfileError) throw error;
      throw new ProfileError("invalid_profile_url", `The agent profile host ${host} does not resolve.`);
    }
    const address = addresses.find((entry) => this.allowLocal || isPublicAddress(entry.address));
    if (!address) throw new ProfileError("invalid_profile_url", "The agent profile URL points to a private or local address.");
    return get(url, address, deadline);
  }
}

const LATE = "The agent profile did not arrive in time.";

/** `work`, unless `deadline` aborts first (the lookup itself cannot be cancelled; its answer is then ignored). */
function beforeDeadline<T>(work: Promise<T>, deadline: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const late = () => reject(new ProfileError("profile_unreachable", LATE));
    if (deadline.aborted) return late();
    deadline.addEventListener("abort", late, { once: true });
    work.then(resolve, reject).finally(() => deadline.removeEventListener("abort", late));
  });
}

const ORDER = "dev.ucp.shopping.order";
const webhookConfig = z.looseObject({ config: z.looseObject({ webhook_url: z.string().max(2000) }) });

/**
 * The order capability's webhook_url: 2026-04-08 keys capabilities by name (each an array of entries), 2026-01-11 lists
 * them with a `name`. Only absolute http(s) URLs count; whether the address may be reached is the outbound guard's check.
 */
export function orderWebhookUrl(capabilities: unknown): string | undefined {
  const entries: unknown[] = Array.isArray(capabilities)
    ? capabilities.filter((entry) => (entry as { name?: unknown } | null)?.name === ORDER)
    : capabilities && typeof capabilities === "object" && Array.isArray((capabilities as Record<string, unknown>)[ORDER])
      ? ((capabilities as Record<string, unknown[]>)[ORDER] ?? [])
      : [];
  for (const entry of entries) {
    const parsed = webhookConfig.safeParse(entry);
    if (!parsed.success) continue;
    try {
      const url = new URL(parsed.data.config.webhook_url);
      if ((url.protocol === "https:" || url.protocol === "http:") && !url.username && !url.password) return url.href;
    } catch {
      // not a URL: no webhooks for this agent
    }
  }
  return undefined;
}

/**
 * GET without redirects, connected to the checked address, within the size limit and before `deadline`: the deadline
 * ends the request however far it got (connecting, waiting for headers, or reading a body that arrives a byte at a time).
 */
function get(url: URL, address: { address: string; family: number }, deadline: AbortSignal): Promise<string> {
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const unreachable = (detail: string) => reject(new ProfileError("profile_unreachable", detail));
    if (deadline.aborted) return unreachable(LATE);
    const request = client.get(
      url,
      {
        headers: { accept: "application/json" },
        lookup: (_host, options, callback) => {
          if ((options as { all?: boolean }).all) (callback as (error: null, addresses: Array<{ address: string; family: number }>) => void)(null, [address]);
          else callback(null, address.address, address.family);
        },
      },
      (response) => {
        if (response.statusCode !== 200) {
          request.destroy();
          unreachable(`The agent profile answered HTTP ${response.statusCode ?? "?"} (redirects are not followed).`);
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_BYTES) {
            request.destroy();
            reject(new ProfileError("profile_malformed", "The agent profile is larger than 64 KB."));
            return;
          }
          chunks.push(chunk);
        });
        response.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
        response.on("error", () => unreachable("The agent profile download failed."));
      },
    );
    const late = () => {
      request.destroy();
      unreachable(LATE);
    };
    deadline.addEventListener("abort", late, { once: true });
    request.on("error", () => unreachable("The agent profile could not be fetched."));
    request.on("close", () => deadline.removeEventListener("abort", late));
  });
}
