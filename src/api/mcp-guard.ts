// DNS-rebinding protection and CORS for /api/mcp: Origin (and, on a loopback bind, Host) checked against an allow-list.
import type { Request, Response } from "express";
import { localhostAllowedHostnames, validateHostHeader, validateOriginHeader } from "@modelcontextprotocol/server";
import type { Config } from "../core/config.ts";

/** Distinct (Origin, Host) pairs whose verdict is remembered; a flood of made-up headers only empties the memo. */
const MAX_VERDICTS = 256;
const LOOPBACK_BINDS = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);
/** Request headers a browser client may send (besides the CORS-safelisted ones); `Mcp-Param-*` is allowed by prefix. */
const ALLOWED_HEADERS = ["authorization", "content-type", "accept", "mcp-protocol-version", "mcp-method", "mcp-name", "mcp-session-id", "last-event-id", "x-request-id"];
const EXPOSED_HEADERS = "RateLimit-Policy, RateLimit, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, WWW-Authenticate, Mcp-Session-Id";

export interface McpGuard {
  /**
   * Refuses (403, answered here: false) a request whose Origin, or on a loopback bind whose Host, is not allowed; adds
   * CORS headers otherwise (true).
   */
  check(req: Request, res: Response): boolean;
  /** Answers a CORS preflight: 204 with the allowed method and headers for an allowed Origin, 403 otherwise. */
  preflight(req: Request, res: Response): void;
}

/**
 * Allowed origins (port-agnostic hostnames): loopback, the host of PUBLIC_BASE_URL, and MCP_ALLOWED_ORIGINS. Requests
 * without an Origin header (every non-browser MCP client) pass the Origin check. When the server listens on a
 * loopback address only, the Host header must name one of the same hosts, so a page on a rebound name cannot reach it.
 * MCP_ALLOWED_ORIGINS=* lets every Origin through (a deployment whose proxy checks origins itself).
 */
export function mcpGuard(config: Config): McpGuard {
  const hostnames = [...new Set([...localhostAllowedHostnames(), hostnameOf(config.publicBaseUrl), ...config.mcpAllowedOrigins.map(hostnameOf)])]
    .filter((name): name is string => Boolean(name));
  const anyOrigin = config.mcpAllowedOrigins.includes("*");
  const checkHost = LOOPBACK_BINDS.has(config.host);

  const judge = (originHeader: string | undefined, hostHeader: string | undefined): string | undefined => {
    const origin = anyOrigin ? undefined : validateOriginHeader(originHeader, hostnames);
    if (origin && !origin.ok) return origin.message;
    if (checkHost) {
      const host = validateHostHeader(hostHeader, hostnames);
      if (!host.ok) return host.message;
    }
    return undefined;
  };
  // The verdict depends on the two headers alone, and parsing them (URLs) was a noticeable share of a cached MCP call.
  const verdicts = new Map<string, string | null>();
  const refusal = (req: Request): string | undefined => {
    // Without an Origin (every non-browser client) the Host alone; a header value holds no line break, so keys cannot clash.
    const { origin, host = "" } = req.headers;
    const key = origin === undefined ? host : `${origin}\n${host}`;
    let verdict = verdicts.get(key);
    if (verdict === undefined) {
      if (verdicts.size >= MAX_VERDICTS) verdicts.clear();
      verdict = judge(req.headers.origin, req.headers.host) ?? null;
      verdicts.set(key, verdict);
    }
    return verdict ?? undefined;
  };

  const allowOrigin = (req: Request, res: Response) => {
    // res.vary parses and merges an existing Vary header; the MCP door's responses have none yet.
    if (res.hasHeader("Vary")) res.vary("Origin");
    else res.setHeader("Vary", "Origin");
    if (req.headers.origin) {
      res.set("Access-Control-Allow-Origin", req.headers.origin);
      res.set("Access-Control-Expose-Headers", EXPOSED_HEADERS);
    }
  };

  return {
    check(req, res) {
      const refused = refusal(req);
      if (refused) {
        forbid(res, refused);
        return false;
      }
      allowOrigin(req, res);
      return true;
    },
    preflight(req, res) {
      const refused = refusal(req);
      if (refused) return forbid(res, refused);
      allowOrigin(req, res);
      const asked = String(req.headers["access-control-request-headers"] ?? "")
        .split(",")
        .map((name) => name.trim().toLowerCase())
        .filter(Boolean);
      const unknown = asked.filter((name) => !ALLOWED_HEADERS.includes(name) && !name.startsWith("mcp-param-"));
      if (unknown.length) return forbid(res, `These request headers are not allowed: ${unknown.join(", ")}.`);
      res.set("Access-Control-Allow-Methods", "POST, GET, DELETE, OPTIONS");
      res.set("Access-Control-Allow-Headers", [...new Set([...ALLOWED_HEADERS, ...asked])].join(", "));
      res.set("Access-Control-Max-Age", "600");
      res.status(204).end();
    },
  };
}

/** 403 with a JSON-RPC error without id, as the MCP transport spec describes for a refused Origin. */
function forbid(res: Response, message: string): void {
  res.status(403).type("application/json").send(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32600, message: `Forbidden: ${message}` } }));
}

function hostnameOf(value: string): string | undefined {
  try {
    return new URL(value.includes("://") ? value : `http://${value}`).hostname.toLowerCase() || undefined;
  } catch {
    return undefined;
  }
}
