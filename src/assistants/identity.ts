// Who is chatting: the storefront session of the cookie, or the staff user / API key of the admin connection. Never the client's word.
import { keyCaller, type Authenticator } from "../http/auth.ts";
import type { SessionManager } from "../http/session.ts";
import { Unauthorized } from "../core/errors.ts";
import type { Caller } from "../tools/context.ts";
import { SESSION_SCOPES } from "../tools/scopes.ts";
import { PROFILES, type AssistantName } from "./assistant-profiles.ts";

/** What a connection or request presents: its Cookie header, an API key (handshake `auth.token` or Bearer) and address. */
export interface Credentials {
  cookie: string | undefined;
  token: string | undefined;
  address: string;
}

export interface Identities {
  auth: Authenticator;
  sessions: SessionManager;
}

/** The caller an assistant acts as, with `agent` naming the assistant (orders it places are stamped with it); 401 otherwise. */
export async function identify({ auth, sessions }: Identities, assistant: AssistantName, credentials: Credentials): Promise<Caller> {
  const agent = PROFILES[assistant].door;
  const { address } = credentials;
  if (assistant === "storefront") {
    const session = await sessions.resolveCookie(credentials.cookie);
    if (!session) throw new Unauthorized("No storefront session: start one with POST /api/v1/session and send its shop_session cookie.");
    return { kind: "session", actor: `session:${session.id}`, scopes: new Set(SESSION_SCOPES), session, address, agent };
  }
  if (credentials.token !== undefined) {
    const key = await auth.verifyFrom(address, credentials.token);
    if (!key) throw new Unauthorized("The API key is invalid or has been revoked.");
    return { ...keyCaller(key, address), agent };
  }
  const staff = auth.staff ? await auth.staff(credentials.cookie) : undefined;
  if (staff) return { ...staff, address, agent };
  throw new Unauthorized("The admin assistant needs the staff login cookie or an API key (auth.token, or Authorization: Bearer).");
}
