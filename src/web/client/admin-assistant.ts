// The admin assistant page (/admin/assistant): a full-page chat over socket.io (namespace from #admin-assistant, the
// staff cookie authenticates the handshake) with the staff user's earlier chats, streamed Markdown answers, a stop
// button, approval cards for every write and tool results as tables.
import { lastAssistantMessageIsCompleteWithApprovalResponses, type UIMessage } from "ai";
import { chatListItems, emptyState, layout, noteContent } from "./chat/admin-layout.ts";
import { renderMessage } from "./chat/admin-messages.ts";
import { errorNote, unavailableNote, type Note } from "./chat/admin-notes.ts";
import { ObservedChat } from "./chat/state.ts";
import { ChatError, SocketChatTransport, type ChatSummary } from "./socket-chat-transport.ts";

function newChatId(): string {
  return `admin-${crypto.randomUUID()}`;
}

function start(mount: HTMLElement): void {
  const ui = layout(mount);
  const transport = new SocketChatTransport(mount.dataset.namespace ?? "/admin");
  const rendered = new Map<string, { message: UIMessage; node: HTMLElement }>();
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
    ui.note.replaceChildren(...(note ? noteContent(note, resume) : []));
  }

  function resume(): void {
    chat.clearError();
    void chat.resumeStream();
  }

  const empty = emptyState((text) => {
    ui.input.value = text;
    ui.input.focus();
  });

  /**
   * Message nodes are kept by message id: only a message that changed is built again (so a folded result stays open
   * while the next answer streams). ObservedChat's state stores a new copy whenever a message changes.
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
    const kept = rendered.get(message.id);
    if (kept?.message === message) return kept.node;
    const node = renderMessage(message, decide);
    rendered.set(message.id, { message, node });
    return node;
  }

  let listed = "";

  function renderChats(): void {
    const key = JSON.stringify([chat.id, chats]);
    if (key === listed) return;
    listed = key;
    ui.list.replaceChildren(...chatListItems(chats, chat.id, (id) => void switchTo(id)));
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
      const answer = await transport.listChats();
      chats = answer.chats;
      available = answer.available;
      blocked = answer.available ? undefined : unavailableNote(answer.code);
    } catch (error) {
      blocked = errorNote(error instanceof Error ? error : new Error(String(error)));
    }
    render();
  }

  /** Opens a stored chat and follows its turn if one is still running (the server replays it from the start). */
  async function switchTo(id: string): Promise<void> {
    const saved = await transport.loadChat(id).catch(() => null);
    chat = openChat(id, saved?.messages ?? []);
    history.replaceState(null, "", `#${encodeURIComponent(id)}`);
    render();
    void chat.resumeStream();
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
