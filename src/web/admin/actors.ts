// Who did something, in Danish words for the staff: "dig", "medarbejder mette@…", "API-nøgle ERP sync", "kunden via
// chatten", "systemet" — from the stored actor ("staff:<id>", "key:<id>", "session:<id>", "system:<what>") and door.
import keysList from "../../tools/keys/list.ts";
import type { AdminRequest } from "./site.ts";

/** Doors as the place something was done ("via …"). */
export const DOOR_TEXT: Record<string, string> = {
  rest: "REST-API'et",
  mcp: "MCP",
  ucp: "UCP",
  acp: "ACP",
  admin: "admin",
  "admin-assistant": "admin-assistenten",
  "storefront-assistant": "butikschatten",
  cli: "kommandolinjen",
  web: "butikken",
  webhook: "en webhook",
  system: "systemet",
};

/** Doors as a short label (a table cell). */
export const DOOR_LABEL: Record<string, string> = {
  rest: "REST-API",
  mcp: "MCP",
  ucp: "UCP",
  acp: "ACP",
  admin: "Admin",
  "admin-assistant": "Admin-assistent",
  "storefront-assistant": "Butikschat",
  cli: "Kommandolinje",
  web: "Butik",
  webhook: "Webhook",
  system: "System",
};

const SYSTEM: Record<string, string> = {
  stripe: "betalingsudbyderen (Stripe)",
  cli: "systemet (kommandolinjen)",
  "payment-link": "betalingslinket",
  "storefront-web": "butikken",
  "ucp-simulation": "en UCP-testkøber",
  "ucp-test-order-update": "en UCP-test",
};

export type ActorName = (actor: string, door?: string) => string;

/**
 * A namer for these actors: staff by e-mail, API keys by name (when the viewer may read keys), shoppers as "kunden"
 * with the place they used, automatic work as "systemet". Unknown forms are shown as stored.
 */
export async function actorNames(web: AdminRequest, actors: Array<string | null | undefined>): Promise<ActorName> {
  const known = actors.filter((actor): actor is string => Boolean(actor));
  const staffIds = known.filter((actor) => actor.startsWith("staff:")).map((actor) => actor.slice(6));
  const wantKeys = known.some((actor) => actor.startsWith("key:")) && web.may(keysList);
  const [emails, keys] = await Promise.all([
    staffIds.length ? web.deps.staff.emails(staffIds) : new Map<string, string>(),
    wantKeys ? web.call(keysList, {}) : [],
  ]);
  const keyNames = new Map(keys.map((key) => [key.id, key.name]));
  return (actor, door) => {
    if (actor === web.signedIn?.caller.actor) return "dig";
    if (actor.startsWith("staff:")) return `medarbejder ${emails.get(actor.slice(6)) ?? "(slettet)"}`;
    if (actor.startsWith("key:")) {
      const name = keyNames.get(actor.slice(4));
      return name ? `API-nøgle ${name}` : `API-nøgle ${actor.slice(4, 12)}…`;
    }
    if (actor.startsWith("session:")) {
      if (door === "storefront-assistant") return "kunden via chatten";
      if (door === "web") return "kunden (butikken)";
      return "kunden";
    }
    if (actor === "anonymous") return "en besøgende";
    if (actor.startsWith("system:")) return SYSTEM[actor.slice(7)] ?? "systemet";
    if (actor === "system") return "systemet";
    return actor;
  };
}
