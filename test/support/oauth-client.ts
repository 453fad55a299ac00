// The MCP SDK's OAuth client provider, kept in memory: one "session" of an MCP client that registers dynamically, or is
// known by its Client ID Metadata Document URL, and lands on REDIRECT (nothing listens there: tests read the code).
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthClientProvider, OAuthDiscoveryState, OAuthTokens } from "@modelcontextprotocol/client";

export const REDIRECT = "http://127.0.0.1:9/callback";

export class MemoryProvider implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = "";
  discovery: OAuthDiscoveryState | undefined;
  authorizationUrl: URL | undefined;
  readonly clientName: string;
  readonly metadataUrl: string | undefined;

  constructor(options: { clientName: string; metadataUrl?: string }) {
    this.clientName = options.clientName;
    this.metadataUrl = options.metadataUrl;
    // A metadata-document client is known by its URL (the SDK itself takes https URLs only, so it is given as known).
    if (options.metadataUrl) this.info = { client_id: options.metadataUrl };
  }

  get redirectUrl(): string {
    return REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: this.clientName, redirect_uris: [REDIRECT], grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], token_endpoint_auth_method: "none" };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery;
  }
}
