// The admin assistant page (/admin/assistant): a full-page chat over socket.io (namespace from #admin-assistant, the
// staff cookie authenticates the handshake) with the staff user's earlier chats, streamed Markdown answers, a stop
// button, approval cards for every write and tool results as tables.
import { lastAssistantMessageIsCompleteWithApprovalResponses, type UIMessage } from "ai";
import { errorNote, unavailableNote, type Note } from "./chat/admin-notes.ts";
import { renderMessage } from "./chat/admin-messages.ts";
import { ObservedChat } from "./chat/state.ts";
import { ChatError, SocketChatTransport, type ChatSummary } from "./socket-chat-transport.ts";

const SUGGESTIONS = ["Hvordan gik salget de sidste 7 dage?", "Vis de 5 seneste ordrer", "Hvilke varer er ved at løbe tør?"];
const LIST_TIME = new Intl.DateTimeFormat("da-DK", { dateStyle: "short", timeStyle: "short" });

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function button(text: string, className: string): HTMLButtonElement {
  const node = el("button", className, text);
  node.type = "button";
  return node;
}

/** The page's fixed parts, built once into the mount point. */
function layout(mount: HTMLElement) {
  const aside = el("aside", "assistant-chats");
  aside.setAttribute("aria-labelledby", "assistant-chats-title");
  const head = aside.appendChild(el("div", "assistant-chats-head"));
  const title = head.appendChild(el("h2", undefined, "Samtaler"));
  title.id = "assistant-chats-title";
  const fresh = head.appendChild(button("Ny samtale", "button button-small button-secondary"));
  const list = aside.appendChild(el("ul", "chat-list"));

  const main = el("section", "assistant-main");
  main.setAttribute("aria-label", "Samtale");
  const note = main.appendChild(el("div", "notice notice-info assistant-note"));
  note.hidden = true;
  const log = main.appendChild(el("div", "chat-log"));
  log.setAttribute("role", "log");
  log.setAttribute("aria-label", "Samtalen med assistenten");
  const status = main.appendChild(el("p", "chat-status"));
  status.setAttribute("role", "status");
  const form = main.appendChild(el("form", "chat-composer"));
  const label = form.appendChild(el("label", "visually-hidden", "Besked til assistenten"));
  label.htmlFor = "assistant-input";
  const input = form.appendChild(el("textarea"));
  input.id = "assistant-input";
  input.rows = 2;
  input.maxLength = 4000;
  input.placeholder = "Skriv til assistenten … (Enter sender, Shift+Enter giver ny linje)";
  const send = form.appendChild(el("button", "button", "Send"));
  send.type = "submit";
  const stop = form.appendChild(button("Stop", "button button-secondary"));
  stop.hidden = true;

  mount.replaceChildren(aside, main);
  mount.classList.add("assistant");
  return { fresh, list, note, log, status, form, input, send, stop };
}

function newChatId(): string {
  return `admin-${crypto.randomUUID()}`;
}

function start(mount: HTMLElement): void {
  const ui = layout(mount);
  const transport = new SocketChatTransport(mount.dataset.namespace ?? "/admin");
  const rendered = new Map<string, { json: string; node: HTMLElement }>();
  let chats: ChatSummary[] = [];
  let available = true;
  let blocked: Note | undefined;
  let chat = openChat(newChatId(), []);

  function openChat(id: string, messages: UIMessage[]): ObservedChat {
    const opened: ObservedChat = new ObservedChat(
      {
        id,
        messages,
        transport,
        sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
        onFinish: () => void refreshChats(),
      },
      () => {
        if (opened === chat) render();
      },
    );
    return opened;
  }

  function decide(approvalId: string, approved: boolean): void {
    void chat.addToolApprovalResponse({ id: approvalId, approved });
  }

  let noted = "";

  /** Rebuilt only when it changes, so its button keeps focus while an answer streams. */
  function showNote(note: Note | undefined, tone: "info" | "error"): void {
    const key = note ? JSON.stringify([tone, note]) : "";
    if (key === noted) return;
    noted = key;
    ui.note.hidden = !note;
    ui.note.className = `notice notice-${tone} assistant-note`;
    ui.note.replaceChildren();
    if (!note) return;
    ui.note.append(el("p", undefined, note.text));
    if (note.link) {
      const link = ui.note.appendChild(el("a", undefined, note.link.text));
      link.href = note.link.href;
    }
    if (note.resumable) {
      const retry = ui.note.appendChild(button("Hent svaret igen", "button button-small button-secondary"));
      retry.addEventListener("click", () => {
        chat.clearError();
        void chat.resumeStream();
      });
    }
  }

  function emptyState(): HTMLElement {
    const box = el("div", "chat-empty");
    box.append(el("p", undefined, "Spørg om ordrer, salg, varer eller rabatkoder, eller bed assistenten om at ændre noget. Du godkender hver ændring, før den sker."));
    const ideas = box.appendChild(el("div", "chat-suggestions"));
    for (const text of SUGGESTIONS) {
      const idea = ideas.appendChild(button(text, "button button-small button-secondary"));
      idea.addEventListener("click", () => {
        ui.input.value = text;
        ui.input.focus();
      });
    }
    return box;
  }

  const empty = emptyState();

  /**
   * Message nodes are kept by message id and content: only a message that changed is built again (so a folded result
   * stays open while the next answer streams). Content, not identity: AbstractChat updates the streaming message in
   * place, and ObservedChat's state keeps that same object.
   */
  function renderLog(): void {
    const stick = ui.log.scrollHeight - ui.log.scrollTop - ui.log.clientHeight < 80;
    const nodes = chat.messages.length ? chat.messages.map(nodeOf) : available ? [empty] : [];
    nodes.forEach((node, index) => {
      const present = ui.log.children[index];
      if (present !== node) ui.log.insertBefore(node, present ?? null);
    });
    while (ui.log.children.length > nodes.length) ui.log.lastElementChild!.remove();
    if (stick) ui.log.scrollTop = ui.log.scrollHeight;
  }

  function nodeOf(message: UIMessage): HTMLElement {
    const json = JSON.stringify(message);
    const kept = rendered.get(message.id);
    if (kept?.json === json) return kept.node;
    const node = renderMessage(message, decide);
    rendered.set(message.id, { json, node });
    return node;
  }

  let listed = "";

  function renderChats(): void {
    const key = JSON.stringify([chat.id, chats]);
    if (key === listed) return;
    listed = key;
    const items = chats.map((summary) => {
      const item = el("li");
      const open = item.appendChild(button("", "chat-list-item"));
      open.append(el("span", "chat-list-title", summary.title ?? "Samtale uden titel"), el("time", "chat-list-time", LIST_TIME.format(new Date(summary.updatedAt))));
      open.querySelector("time")!.dateTime = summary.updatedAt;
      if (summary.id === chat.id) open.setAttribute("aria-current", "true");
      open.addEventListener("click", () => void switchTo(summary.id));
      return item;
    });
    ui.list.replaceChildren(...(items.length ? items : [el("li", "hint", "Ingen tidligere samtaler.")]));
  }

  function render(): void {
    renderLog();
    const busy = chat.status === "submitted" || chat.status === "streaming";
    ui.status.textContent = chat.status === "submitted" ? "Assistenten tænker …" : "";
    ui.log.setAttribute("aria-busy", String(busy));
    ui.stop.hidden = !busy;
    ui.send.disabled = busy || !available;
    ui.input.disabled = !available;
    const failure = chat.status === "error" && chat.error ? errorNote(chat.error as ChatError) : undefined;
    showNote(blocked ?? failure, available ? "error" : "info");
    renderChats();
  }

  async function refreshChats(): Promise<void> {
    try {
      const listed = await transport.listChats();
      chats = listed.chats;
      available = listed.available;
      blocked = listed.available ? undefined : unavailableNote(listed.code);
    } catch (error) {
      blocked = errorNote(error instanceof Error ? error : new Error(String(error)));
    }
    render();
  }

  /**
   * Opens a stored chat as it was saved. No resumeStream here: the server replays a turn that finished in the last
   * 30 s too, and the replay of an approval's continuation cannot be applied to the stored message (the AI SDK fails
   * with "No tool invocation found"); a turn still running shows up when it is saved.
   */
  async function switchTo(id: string): Promise<void> {
    const saved = await transport.loadChat(id).catch(() => null);
    chat = openChat(id, saved?.messages ?? []);
    history.replaceState(null, "", `#${encodeURIComponent(id)}`);
    render();
  }

  ui.fresh.addEventListener("click", () => {
    chat = openChat(newChatId(), []);
    history.replaceState(null, "", location.pathname);
    render();
    ui.input.focus();
  });
  ui.form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = ui.input.value.trim();
    if (!text || ui.send.disabled) return;
    ui.input.value = "";
    history.replaceState(null, "", `#${encodeURIComponent(chat.id)}`);
    void chat.sendMessage({ text });
  });
  ui.input.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      ui.form.requestSubmit();
    }
  });
  ui.stop.addEventListener("click", () => void chat.stop());
  transport.socket.on("connect_error", (error: Error & { data?: { code?: string } }) => {
    blocked = errorNote(new ChatError(error.message, error.data?.code ?? "connect_error"));
    render();
  });
  transport.socket.on("connect", () => {
    if (blocked?.resumable) void refreshChats();
  });

  render();
  void refreshChats().then(() => {
    const wanted = decodeURIComponent(location.hash.slice(1));
    if (wanted && chats.some((summary) => summary.id === wanted)) void switchTo(wanted);
  });
}

const mount = document.getElementById("admin-assistant");
if (mount) start(mount);
