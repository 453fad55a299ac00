// The storefront chat panel (loaded by chat-widget.ts when first needed): talks to the storefront assistant over
// socket.io, keeps the conversation across page loads and refreshes the cart badge when the assistant changes the cart.
import { getToolName, lastAssistantMessageIsCompleteWithApprovalResponses, type UIMessage } from "ai";
import { el } from "./chat/dom.ts";
import { BUSY_KEY, CHAT_ID_KEY, OPEN_KEY } from "./chat/keys.ts";
import { ObservedChat } from "./chat/state.ts";
import { CART_TOOLS, renderMessage, toolParts, type MessageContext } from "./chat/storefront-messages.ts";
import { CART_CHANGED, type CartChangedDetail } from "./events.ts";
import { ChatError, SocketChatTransport } from "./socket-chat-transport.ts";

const UNAVAILABLE_NOTE =
  "Vores chatassistent er ikke slået til lige nu. Du kan stadig søge og handle som normalt, og kundeservice hjælper gerne – se kontaktoplysningerne nederst på siden.";

/** Readable lines for the server's error codes; `retry` says whether trying again can help. */
const ERRORS: Record<string, { text: string; retry: boolean }> = {
  rate_limited: { text: "Du har skrevet mange beskeder på kort tid. Vent et øjeblik, og prøv igen.", retry: true },
  disconnected: { text: "Forbindelsen til chatten blev afbrudt.", retry: true },
  connect_error: { text: "Chatten kan ikke få forbindelse lige nu.", retry: true },
  turn_running: { text: "Assistenten svarer stadig på din forrige besked.", retry: true },
  invalid_input: { text: "Beskeden kunne ikke sendes. Den må højst være 4.000 tegn.", retry: false },
  unauthorized: { text: "Chatten kræver cookies. Genindlæs siden, og prøv igen.", retry: false },
  no_pending_approval: { text: "Bestillingen venter ikke længere på dit svar.", retry: false },
};
/** From 40rem up the panel floats beside the page (chat.css); below it covers the page. */
const FLOATING = window.matchMedia("(min-width: 40rem)");
const OTHER_ERROR = { text: "Noget gik galt. Prøv igen om lidt.", retry: true };

function codeOf(error: unknown): string {
  return error instanceof ChatError ? error.code : "error";
}

function newChatId(): string {
  return crypto.randomUUID();
}

export class ChatPanel {
  private readonly panel: HTMLElement;
  private readonly log: HTMLOListElement;
  private readonly announcer: HTMLElement;
  private readonly problem: HTMLElement;
  private readonly form: HTMLFormElement;
  private readonly input: HTMLTextAreaElement;
  private readonly send: HTMLButtonElement;
  private readonly stop: HTMLButtonElement;
  private readonly note: HTMLElement;
  private readonly fresh: HTMLButtonElement;
  private readonly views = new WeakMap<UIMessage, HTMLElement>();
  private transport: SocketChatTransport | undefined;
  private chat: ObservedChat | undefined;
  private starting: Promise<void> | undefined;
  /** Tool calls already shown as finished, so a cart result refreshes the badge once, and never from history. */
  private readonly settled = new Set<string>();
  private wasRunning = false;

  private readonly toggle: HTMLButtonElement;

  constructor(toggle: HTMLButtonElement, root: HTMLElement) {
    this.toggle = toggle;
    this.log = el("ol", { class: "chat-log", "aria-label": "Samtale" });
    this.announcer = el("p", { class: "visually-hidden", "aria-live": "polite", "data-chat-announce": true });
    this.problem = el("div", { class: "chat-problem", role: "alert", hidden: true });
    this.note = el("p", { class: "chat-note", hidden: true, tabindex: "-1" }, UNAVAILABLE_NOTE);
    this.input = el("textarea", { id: "chat-input", name: "text", rows: "2", maxlength: "4000", required: true, placeholder: "Spørg om stel, størrelser, levering…", autocomplete: "off" });
    this.send = el("button", { type: "submit", class: "button button-small" }, "Send");
    this.stop = el("button", { type: "button", class: "button button-secondary button-small", hidden: true }, "Stop");
    this.form = el(
      "form",
      { class: "chat-form" },
      el("label", { class: "visually-hidden", for: "chat-input" }, "Skriv til assistenten"),
      this.input,
      el("div", { class: "chat-form-actions" }, this.stop, this.send),
    );
    this.fresh = el("button", { type: "button", class: "button-link chat-new" }, "Ny samtale");
    const close = el("button", { type: "button", class: "chat-close", "aria-label": "Luk chatten" }, "×");
    this.panel = el(
      "section",
      { class: "chat-panel", role: "dialog", "aria-labelledby": "chat-title", "aria-describedby": "chat-disclosure", hidden: true },
      el("header", { class: "chat-head" }, el("h2", { id: "chat-title" }, "Spørg vores AI-assistent"), this.fresh, close),
      // AI Act art. 50(1): the shopper is told plainly, before the first message, that no person answers.
      el("p", { class: "chat-disclosure", id: "chat-disclosure" }, "Du skriver med en AI, ikke et menneske. Svarene kan være forkerte – kundeservice hjælper gerne."),
      this.log,
      this.announcer,
      this.problem,
      this.note,
      this.form,
    );
    root.append(this.panel);

    toggle.addEventListener("click", () => (this.panel.hidden ? this.open() : this.close()));
    close.addEventListener("click", () => this.close());
    this.fresh.addEventListener("click", () => void this.startNewChat());
    this.panel.addEventListener("keydown", (event) => {
      if (event.key === "Escape") this.close();
      else if (event.key === "Tab" && !FLOATING.matches) this.keepFocusInside(event);
    });
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      void this.submit();
    });
    this.input.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        this.form.requestSubmit();
      }
    });
    this.stop.addEventListener("click", () => void this.chat?.stop());
  }

  /** On page load: reopen the panel as it was, and pick up a turn that was still running when the last page left. */
  restore(): void {
    if (sessionStorage.getItem(OPEN_KEY)) this.open(false);
    else if (sessionStorage.getItem(BUSY_KEY)) void this.start();
  }

  open(focus = true): void {
    this.panel.hidden = false;
    this.toggle.setAttribute("aria-expanded", "true");
    sessionStorage.setItem(OPEN_KEY, "1");
    void this.start().then(() => {
      this.log.scrollTop = this.log.scrollHeight;
      if (focus && !this.panel.hidden) (this.form.hidden ? this.note : this.input).focus();
    });
    if (focus) this.input.focus();
  }

  close(): void {
    this.panel.hidden = true;
    this.toggle.setAttribute("aria-expanded", "false");
    sessionStorage.removeItem(OPEN_KEY);
    this.toggle.focus();
  }

  /** On a phone the panel covers the page: Tab and Shift+Tab go round inside it instead of reaching the page behind. */
  private keepFocusInside(event: KeyboardEvent): void {
    const focusable = Array.from(this.panel.querySelectorAll<HTMLElement>("a[href], button, textarea")).filter(
      (node) => !node.closest("[hidden]") && !(node instanceof HTMLButtonElement && node.disabled),
    );
    const [first, last] = [focusable[0], focusable.at(-1)];
    if (!first || !last) return;
    const edge = event.shiftKey ? first : last;
    if (document.activeElement !== edge && this.panel.contains(document.activeElement)) return;
    event.preventDefault();
    (event.shiftKey ? last : first).focus();
  }

  /** Connects and loads the conversation once; later calls wait for the same start. */
  private start(): Promise<void> {
    this.starting ??= this.connect().catch((error: unknown) => {
      this.starting = undefined;
      this.showProblem(error, () => void this.start());
    });
    return this.starting;
  }

  private async connect(): Promise<void> {
    this.setBusy(true);
    const transport = (this.transport ??= this.openTransport());
    await connected(transport);
    const { available, chats } = await transport.listChats();
    if (!available) {
      for (const part of [this.form, this.log, this.fresh]) part.hidden = true;
      this.panel.classList.add("chat-panel-off");
      this.note.hidden = false;
      this.setBusy(false);
      transport.socket.disconnect();
      return;
    }
    const remembered = localStorage.getItem(CHAT_ID_KEY);
    const id = remembered ?? chats[0]?.id ?? newChatId();
    const saved = chats.some((chat) => chat.id === id) ? await transport.loadChat(id) : null;
    this.useChat(id, saved?.messages ?? []);
    this.setBusy(false);
    if (saved) void this.chat?.resumeStream();
  }

  /** The socket reconnects by itself after a drop; an answer the drop cut off is then picked up where it was. */
  private openTransport(): SocketChatTransport {
    const transport = new SocketChatTransport("/storefront");
    transport.socket.on("connect", () => {
      if (codeOf(this.chat?.error) === "disconnected") void this.chat?.resumeStream();
    });
    return transport;
  }

  private useChat(id: string, messages: UIMessage[]): void {
    localStorage.setItem(CHAT_ID_KEY, id);
    for (const message of messages) for (const part of toolParts(message)) if (part.state === "output-available") this.settled.add(part.toolCallId);
    this.chat = new ObservedChat(
      { id, messages, transport: this.transport, sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses },
      () => this.render(),
    );
    this.log.replaceChildren();
    this.render();
  }

  private async startNewChat(): Promise<void> {
    await this.chat?.stop();
    if (this.transport) this.useChat(newChatId(), []);
    else localStorage.removeItem(CHAT_ID_KEY);
    this.input.focus();
  }

  private async submit(): Promise<void> {
    const text = this.input.value.trim();
    if (!text) return;
    await this.start();
    if (!this.chat || this.running()) return;
    this.input.value = "";
    await this.chat.sendMessage({ text });
  }

  private running(): boolean {
    return this.chat?.status === "submitted" || this.chat?.status === "streaming";
  }

  private render(): void {
    const chat = this.chat;
    if (!chat) return;
    const nearBottom = this.log.scrollHeight - this.log.scrollTop - this.log.clientHeight < 48;
    const context = this.messageContext(chat);
    const wanted = chat.messages.map((message) => {
      let view = this.views.get(message);
      if (!view) this.views.set(message, (view = renderMessage(message, context)));
      return view;
    });
    const keep = new Set<Element>(wanted);
    for (const child of Array.from(this.log.children)) if (!keep.has(child)) child.remove();
    wanted.forEach((view, index) => {
      if (this.log.children[index] !== view) this.log.insertBefore(view, this.log.children[index] ?? null);
    });
    if (chat.status === "submitted") this.log.append(el("li", { class: "chat-msg chat-typing" }, "Skriver…"));
    if (nearBottom) this.log.scrollTop = this.log.scrollHeight;

    const running = this.running();
    this.stop.hidden = !running;
    this.send.disabled = running;
    this.setBusy(running);
    if (running) sessionStorage.setItem(BUSY_KEY, chat.id);
    else sessionStorage.removeItem(BUSY_KEY);
    if (this.wasRunning && !running) this.announce(chat.messages.at(-1));
    this.wasRunning = running;
    this.refreshCart(chat.messages);
    if (chat.error) this.showProblem(chat.error, () => void this.retry());
    else this.problem.hidden = true;
  }

  private messageContext(chat: ObservedChat): MessageContext {
    return {
      cartTotal: () => latestCartTotal(chat.messages),
      respond: (approvalId, approved) => {
        void chat.addToolApprovalResponse({ id: approvalId, approved });
        this.input.focus();
      },
      addToCart: async (productSlug) => {
        const itemCount = await addToCart(productSlug);
        document.dispatchEvent(new CustomEvent(CART_CHANGED, { detail: { itemCount } satisfies CartChangedDetail }));
        return itemCount;
      },
    };
  }

  /** Reads a finished answer to screen readers once (the log itself is not live: streaming would be read word by word). */
  private announce(message: UIMessage | undefined): void {
    if (message?.role !== "assistant") return;
    const waiting = toolParts(message).some((part) => part.state === "approval-requested");
    this.announcer.textContent = [textOf(message), waiting ? "Bekræft eller afvis nedenfor." : ""].filter(Boolean).join(" ");
  }

  /** Tells the header badge about every cart change a tool call made since this page loaded. */
  private refreshCart(messages: UIMessage[]): void {
    for (const part of messages.flatMap(toolParts)) {
      if (part.state !== "output-available" || this.settled.has(part.toolCallId)) continue;
      this.settled.add(part.toolCallId);
      if (!CART_TOOLS.has(getToolName(part))) continue;
      // A cart summary carries the count; a placed order (cart_checkout) leaves the cart empty.
      const output = part.output as { itemCount?: unknown; orderId?: unknown } | null;
      const detail: CartChangedDetail =
        typeof output?.itemCount === "number" ? { itemCount: output.itemCount } : typeof output?.orderId === "string" ? { itemCount: 0 } : {};
      document.dispatchEvent(new CustomEvent(CART_CHANGED, { detail }));
    }
  }

  private showProblem(error: unknown, retry: () => void): void {
    const code = codeOf(error);
    const { text, retry: canRetry } = ERRORS[code] ?? OTHER_ERROR;
    const button = canRetry ? el("button", { type: "button", class: "button-link" }, "Prøv igen") : null;
    button?.addEventListener("click", retry);
    this.problem.replaceChildren(el("span", {}, text), button ?? "");
    this.problem.hidden = false;
  }

  /**
   * Try again: pick up a dropped turn; send a question the server refused before it started (it kept nothing) once
   * more; or have the last question answered anew (a turn that started and failed is stored up to the question).
   */
  private async retry(): Promise<void> {
    const chat = this.chat;
    if (!chat) return;
    const code = codeOf(chat.error);
    chat.clearError();
    if (code === "disconnected" || code === "turn_running") return chat.resumeStream();
    const last = chat.messages.at(-1);
    if ((code === "rate_limited" || code === "connect_error") && last?.role === "user") {
      chat.messages = chat.messages.slice(0, -1);
      return chat.sendMessage({ text: textOf(last) });
    }
    return chat.regenerate();
  }

  private setBusy(busy: boolean): void {
    this.log.setAttribute("aria-busy", String(busy));
  }
}

function textOf(message: UIMessage | undefined): string {
  return message?.parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n") ?? "";
}

/** The newest cart total in the conversation (from any cart tool's summary), for the checkout confirm card. */
function latestCartTotal(messages: UIMessage[]): number | undefined {
  for (const part of messages.flatMap(toolParts).reverse()) {
    if (part.state !== "output-available") continue;
    const output = part.output as { totalDkk?: unknown; lines?: unknown } | null;
    if (Array.isArray(output?.lines) && typeof output.totalDkk === "number") return output.totalDkk;
  }
  return undefined;
}

/**
 * One unit of a product into the session's cart through the cart.add tool (the chat already has a session); the
 * problem's code as the error's message when it is refused (variant_required: the product page picks the variant).
 */
async function addToCart(productSlug: string): Promise<number> {
  const response = await fetch("/api/v1/tools/cart.add", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ productSlug, quantity: 1 }),
    credentials: "same-origin",
  });
  const body = (await response.json().catch(() => ({}))) as { result?: { itemCount?: unknown }; code?: unknown };
  if (!response.ok || typeof body.result?.itemCount !== "number") throw new Error(typeof body.code === "string" ? body.code : "failed");
  return body.result.itemCount;
}

/**
 * Resolves once the socket is connected. The storefront namespace needs the shop_session cookie: a visitor who has
 * none yet (it starts on the home page or at the first cart action) gets one from POST /api/v1/session, then the
 * handshake is tried once more.
 */
async function connected(transport: SocketChatTransport): Promise<void> {
  try {
    await handshake(transport);
  } catch (error) {
    if (codeOf(error) !== "unauthorized") throw error;
    const response = await fetch("/api/v1/session", { method: "POST", credentials: "same-origin" });
    if (!response.ok) throw error;
    await handshake(transport);
  }
}

function handshake(transport: SocketChatTransport): Promise<void> {
  const socket = transport.socket;
  if (socket.connected) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const done = (error?: Error & { data?: { code?: string } }) => {
      socket.off("connect", done);
      socket.off("connect_error", done);
      if (error) reject(new ChatError(error.message, error.data?.code ?? "connect_error"));
      else resolve();
    };
    socket.on("connect", done);
    socket.on("connect_error", done);
    if (!socket.active) socket.connect();
  });
}
