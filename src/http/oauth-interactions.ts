// The admin pages' side of an OAuth authorization (src/web/admin/pages/oauth.ts), served by the authorization server
// (src/api/oauth), and of the storefront's shopper consent page: what the consent page shows, and finishing the authorization with the staff user's choice.
import type { IncomingMessage, ServerResponse } from "node:http";

/** What the consent page shows of a pending authorization. */
export interface PendingAuthorization {
  uid: string;
  /** Whose authorization it is: a staff user's (admin sign-in) or a shopper's (storefront e-mail code). */
  audience: "staff" | "shopper";
  clientId: string;
  clientName: string | null;
  clientUri: string | null;
  /** Where the browser returns to (its host is worth showing). */
  redirectUri: string | null;
  /** The resource asked for (the MCP endpoint). */
  resource: string;
  /** The scopes asked for that the resource knows (shop scopes, or shopper scopes), in their list's order. */
  scopes: string[];
}

export interface OAuthInteractions {
  /** The authorization waiting for the browser of this request (its interaction cookie); throws when there is none. */
  pending(req: IncomingMessage, res: ServerResponse): Promise<PendingAuthorization>;
  /**
   * Grants `scopes` to the client as this staff user, limited to `toolsets` (undefined: every toolset); returns where the
   * browser goes next.
   */
  approve(req: IncomingMessage, res: ServerResponse, staffId: string, scopes: readonly string[], toolsets?: readonly string[]): Promise<string>;
  /** Grants `scopes` to the client as this storefront customer (a shopper's authorization); returns where the browser goes next. */
  approveShopper(req: IncomingMessage, res: ServerResponse, customerId: string, scopes: readonly string[]): Promise<string>;
  /** Refuses the authorization; returns where the browser goes next (back to the client with access_denied). */
  deny(req: IncomingMessage, res: ServerResponse): Promise<string>;
}
