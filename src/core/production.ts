// The production profile's start-up checks: settings that are fine on a developer's machine and unsafe in a real shop.
// A refusal stops the server (one line each); a warning is logged and the server starts.
import net from "node:net";
import type { Config } from "./config.ts";

export interface ProfileCheck {
  refusals: string[];
  warnings: string[];
}

/** Shorter secrets make the HMAC of session cookies and payment links guessable offline. */
const MIN_SESSION_SECRET_LENGTH = 32;

/** What the configuration's profile forbids and what it merely questions; the development profile allows everything. */
export function checkProfile(config: Config): ProfileCheck {
  const check: ProfileCheck = { refusals: [], warnings: [] };
  if (config.profile !== "production") return check;
  const { refusals, warnings } = check;

  if (isLocal(config.publicBaseUrl)) {
    refusals.push(`PUBLIC_BASE_URL must be the shop's public address in production, not ${config.publicBaseUrl} (e-mails, payment pages and UCP profiles link to it)`);
  }
  if (!config.sessionSecret) {
    refusals.push(`SESSION_SECRET must be set in production (${MIN_SESSION_SECRET_LENGTH}+ characters, e.g. \`openssl rand -base64 32\`); every process signs sessions and payment links with it`);
  } else if (config.sessionSecret.length < MIN_SESSION_SECRET_LENGTH) {
    refusals.push(`SESSION_SECRET must be at least ${MIN_SESSION_SECRET_LENGTH} characters in production, got ${config.sessionSecret.length}`);
  }
  // Both are development aids whose abuse needs no credentials: refused, not merely warned about.
  if (config.ucpTestMode) {
    refusals.push("UCP_TEST_MODE=1 is refused in production: its test payment handler lets any agent complete orders without paying");
  }
  if (config.oauthLoopbackClientIds) {
    refusals.push("OAUTH_LOOPBACK_CLIENT_IDS=1 is refused in production: any OAuth client could make the server fetch addresses on its own loopback interface");
  }
  if (config.ucpAllowLocalProfiles) {
    refusals.push("UCP_ALLOW_LOCAL_PROFILES=1 is refused in production: any caller's UCP-Agent header could make the server fetch addresses on its own network");
  }

  // Legitimate in some shops (an ERP on the internal network), and only holders of a webhooks:write key can use it.
  if (config.webhooksAllowLocal) {
    warnings.push("WEBHOOKS_ALLOW_LOCAL=1 in production: webhook URLs of integrators (webhooks:write), ACP keys (keys:write) and anonymous UCP agents' profiles can make the server call addresses on its own network");
  }
  if (config.mcpAllowedOrigins.includes("*")) {
    warnings.push("MCP_ALLOWED_ORIGINS=* in production: any web page may call /api/mcp from its visitors' browsers");
  }
  if (!isLocal(config.publicBaseUrl) && config.publicBaseUrl.startsWith("http:")) {
    warnings.push("PUBLIC_BASE_URL is http: session cookies are not marked Secure; serve the shop over https");
  }
  if (!config.smtpUrl) {
    warnings.push("SMTP_URL is not set: e-mails (sign-in codes, order confirmations) are written to DATA_DIR/outbox instead of sent");
  }
  return check;
}

/** Whether a URL points at this machine (or nowhere anyone else can reach): localhost, *.localhost, loopback, 0.0.0.0. */
function isLocal(url: string): boolean {
  let hostname: string;
  try {
    hostname = new URL(url).hostname.replace(/^\[|\]$/g, "").toLowerCase();
  } catch {
    return true;
  }
  if (hostname === "localhost" || hostname.endsWith(".localhost")) return true;
  if (net.isIPv4(hostname)) return hostname.startsWith("127.") || hostname === "0.0.0.0";
  if (net.isIPv6(hostname)) return hostname === "::1" || hostname === "::" || /^::ffff:127\./.test(hostname);
  return false;
}
