// Agent (platform) profiles named by UCP-Agent: fetched over HTTPS without redirects, with timeouts and a size cap, only
// from public addresses (the shop's one outbound guard, src/core/outbox/address.ts; the connection is pinned to the
// address that was checked, so DNS cannot swap it afterwards), and kept in a fixed-size cache for at least 60 s,
// failures included, so unknown agents cost a bounded amount of work. The order webhook URL a profile names passes the
// same guard as every webhook receiver, or is ignored.
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
const TIMEOUT_MS = 3000;

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
  /** The EC public keys its requests are signed with (`signing_keys`); entries that are not EC JWKs are left out. */
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
  ucp: z.looseObject({ version: z.string().regex(/^\d{4}-\d{2}-\d{2}$/) }),
});

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
          this.remember(url, { expires: Date.now() + FAILURE_TTL_MS, error: failure }, undefined);
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
    const host = hostOf(url);
    let addresses: Array<{ address: string; family: number }>;
    try {
      addresses = net.isIP(host) ? [{ address: host, family: net.isIPv6(host) ? 6 : 4 }] : await resolveAll(host);
    } catch {
      throw new ProfileError("invalid_profile_url", `The agent profile host ${host} does not resolve.`);
    }
    const address = addresses.find((entry) => this.allowLocal || isPublicAddress(entry.address));
    if (!address) throw new ProfileError("invalid_profile_url", "The agent profile URL points to a private or local address.");
    const text = await download(url, address);
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
    return { url: raw, version: parsed.data.ucp.version, name, ...(webhookUrl ? { webhookUrl } : {}), signingKeys: signingKeysOf(parsed.data.signing_keys), capabilities: declaredCapabilities(parsed.data.ucp.capabilities) };
  }
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

/** GET without redirects, connected to the checked address, within the time and size limits. */
function download(url: URL, address: { address: string; family: number }): Promise<string> {
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const unreachable = (detail: string) => reject(new ProfileError("profile_unreachable", detail));
    const request = client.get(
      url,
      {
        timeout: TIMEOUT_MS,
        headers: { accept: "application/json" },
        lookup: (_host, options, callback) => {
          if ((options as { all?: boolean }).all) (callback as (error: null, addresses: Array<{ address: string; family: number }>) => void)(null, [address]);
          else callback(null, address.address, address.family);
        },
      },
      (response) => {
        if (response.statusCode !== 200) {
          response.resume();
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
    request.on("timeout", () => {
      request.destroy();
      unreachable("The agent profile did not answer in time.");
    });
    request.on("error", () => unreachable("The agent profile could not be fetched."));
  });
}
