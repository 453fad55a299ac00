// The fixed parts of the admin assistant page (chat list, note, log, composer) and the pieces that fill them: the
// empty conversation with suggestions, a note's content, the list of earlier chats.
import type { ChatSummary } from "../socket-chat-transport.ts";
import { button, el } from "./dom.ts";
import type { Note } from "./admin-notes.ts";

const SUGGESTIONS = ["Hvordan gik salget de sidste 7 dage?", "Vis de 5 seneste ordrer", "Hvilke varer er ved at løbe tør?"];
const LIST_TIME = new Intl.DateTimeFormat("da-DK", { dateStyle: "short", timeStyle: "short" });

export type AssistantLayout = ReturnType<typeof layout>;

/** Builds the page into the mount point (replacing its no-JavaScript text) and returns the parts the script drives. */
export function layout(mount: HTMLElement) {
  const aside = el("aside", { class: "assistant-chats" });
  aside.setAttribute("aria-labelledby", "assistant-chats-title");
  const head = aside.appendChild(el("div", { class: "assistant-chats-head" }));
  const title = head.appendChild(el("h2", {}, "Samtaler"));
  title.id = "assistant-chats-title";
  const fresh = head.appendChild(button("Ny samtale", "button button-small button-secondary"));
  const list = aside.appendChild(el("ul", { class: "chat-list" }));

  const main = el("section", { class: "assistant-main" });
  main.setAttribute("aria-label", "Samtale");
  const note = main.appendChild(el("div", { class: "notice notice-info assistant-note" }));
  note.hidden = true;
  const log = main.appendChild(el("div", { class: "chat-log" }));
  log.setAttribute("role", "log");
  log.setAttribute("aria-label", "Samtalen med assistenten");
  const status = main.appendChild(el("p", { class: "chat-status" }));
  status.setAttribute("role", "status");
  const form = main.appendChild(el("form", { class: "chat-composer" }));
  const label = form.appendChild(el("label", { class: "visually-hidden" }, "Besked til assistenten"));
  label.htmlFor = "assistant-input";
  const input = form.appendChild(el("textarea"));
  input.id = "assistant-input";
  input.rows = 2;
  input.maxLength = 4000;
  input.placeholder = "Skriv til assistenten … (Enter sender, Shift+Enter giver ny linje)";
  const send = form.appendChild(el("button", { class: "button" }, "Send"));
  send.type = "submit";
  const stop = form.appendChild(button("Stop", "button button-secondary"));
  stop.hidden = true;

  mount.replaceChildren(aside, main);
  mount.classList.add("assistant");
  return { fresh, list, note, log, status, form, input, send, stop };
}

/** The conversation before the first message: what the assistant does, and questions to start with. */
export function emptyState(pick: (text: string) => void): HTMLElement {
  const box = el("div", { class: "chat-empty" });
  box.append(el("p", {}, "Du skriver med en AI-assistent, ikke et menneske: tjek tal og ændringer, før du godkender dem."));
  box.append(el("p", {}, "Spørg om ordrer, salg, varer eller rabatkoder, eller bed assistenten om at ændre noget. Du godkender hver ændring, før den sker."));
  const ideas = box.appendChild(el("div", { class: "chat-suggestions" }));
  for (const text of SUGGESTIONS) ideas.appendChild(button(text, "button button-small button-secondary")).addEventListener("click", () => pick(text));
  return box;
}

/** A note's text, its link, and for a dropped connection a button that fetches the answer again. */
export function noteContent(note: Note, resume: () => void): HTMLElement[] {
  const nodes: HTMLElement[] = [el("p", {}, note.text)];
  if (note.link) {
    const link = el("a", {}, note.link.text);
    link.href = note.link.href;
    nodes.push(link);
  }
  if (note.resumable) {
    const retry = button("Hent svaret igen", "button button-small button-secondary");
    retry.addEventListener("click", resume);
    nodes.push(retry);
  }
  return nodes;
}

/** The staff user's chats, newest first, the open one marked. */
export function chatListItems(chats: ChatSummary[], openId: string, open: (id: string) => void): HTMLElement[] {
  if (!chats.length) return [el("li", { class: "hint" }, "Ingen tidligere samtaler.")];
  return chats.map((summary) => {
    const item = el("li");
    const choose = item.appendChild(button("", "chat-list-item"));
    const time = el("time", { class: "chat-list-time" }, LIST_TIME.format(new Date(summary.updatedAt)));
    time.dateTime = summary.updatedAt;
    choose.append(el("span", { class: "chat-list-title" }, summary.title ?? "Samtale uden titel"), time);
    if (summary.id === openId) choose.setAttribute("aria-current", "true");
    choose.addEventListener("click", () => open(summary.id));
    return item;
  });
}
