// What the admin assistant page says when the assistant cannot answer: not configured, switched off, signed out, a
// refused or dropped connection, or an error frame of a turn (codes: docs/chat.md "Error codes").

export interface Note {
  text: string;
  /** A link to follow (sign in again, the settings page). */
  link?: { href: string; text: string };
  /** Whether the turn can be picked up again with resumeStream (a dropped connection). */
  resumable?: boolean;
}

/** Why the assistant is unavailable (`listChats().available === false`). */
export function unavailableNote(code: string | undefined): Note {
  if (code === "feature_disabled") {
    return { text: "Assistenten er slået fra for butikken (funktionen admin_assistant).", link: { href: "/admin/settings", text: "Gå til indstillinger" } };
  }
  return {
    text: "Assistenten er ikke sat op: serveren har ingen sprogmodel (miljøvariablen OPENAI_API_KEY mangler). Resten af admin virker som før.",
  };
}

const TEXTS: Record<string, string> = {
  unauthorized: "Du er ikke logget ind længere.",
  rate_limited: "Du har sendt mange beskeder på kort tid. Vent et øjeblik, og prøv igen.",
  turn_running: "Assistenten skriver stadig på et svar i denne samtale. Vent, til det er færdigt.",
  invalid_input: "Beskeden kunne ikke sendes: den er tom eller længere end 4.000 tegn.",
  no_pending_approval: "Der er ikke længere noget at godkende i denne samtale.",
  internal: "Assistenten fejlede. Prøv igen om lidt.",
};

/** An error of a turn or of the connection (`chat.error`, with the ChatError code when the server sent one). */
export function errorNote(error: Error & { code?: string }): Note {
  const code = error.code ?? "";
  if (code === "not_configured" || code === "feature_disabled") return unavailableNote(code);
  if (code === "unauthorized") return { text: TEXTS.unauthorized!, link: { href: "/admin/login", text: "Log ind igen" } };
  if (code === "disconnected" || code === "connect_error") {
    return { text: "Forbindelsen til serveren blev afbrudt.", resumable: true };
  }
  return { text: TEXTS[code] ?? `Assistenten svarede med en fejl: ${error.message}` };
}
