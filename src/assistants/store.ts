// Conversations on the server: a chat per (assistant, owner, client chat id) and its UI messages, the only history the model sees.
import type { UIMessage } from "ai";
import type { Prisma } from "../core/db.ts";
import { dbErrorCode } from "../core/errors.ts";
import type { ChatMessage, Prisma as PrismaTypes } from "../generated/prisma/client.ts";
import { toJson, type JsonValue } from "../core/json.ts";
import type { AssistantName } from "./profiles.ts";

/** Whose chat: the assistant, the owner's audit actor ("session:…", "staff:…", "key:…") and the client's chat id. */
export interface ChatRef {
  assistant: AssistantName;
  owner: string;
  clientId: string;
  /** The storefront session, so its chats go when the session goes. */
  sessionId: string | null;
}

export interface OpenChat {
  id: string;
  clientId: string;
  title: string | null;
  messages: UIMessage[];
  /** The stored form of each loaded message, to write only what changed. */
  stored: string[];
}

/** One turn's hold on its chat: its id, and when the hold lapses if the process dies before releasing it. */
export interface TurnLease {
  id: string;
  until: Date;
}

export interface ChatSummary {
  id: string;
  title: string | null;
  createdAt: string;
  updatedAt: string;
}

const TITLE_CHARS = 80;
/** Many turns end at once under load: wait for a pooled connection like the executor does, not Prisma's 2 s. */
const SAVE_WAIT = { maxWait: 10_000, timeout: 30_000 };
const LIST_LIMIT = 50;

export class ChatStore {
  constructor(private readonly prisma: Prisma) {}

  /**
   * Takes the chat for one turn (created empty when the owner has none with this id) and loads its messages; undefined
   * while another turn, in any process, holds it. The hold is a row update, so every process sharing the database agrees.
   */
  async claim(ref: ChatRef, lease: TurnLease): Promise<OpenChat | undefined> {
    const key = { assistant: ref.assistant, owner: ref.owner, clientId: ref.clientId };
    const hold = { turnId: lease.id, turnUntil: lease.until };
    const select = { id: true, clientId: true, title: true };
    // updateManyAndReturn, not update: a chat's first turn finds no row, and update's P2025 error (built with a
    // source-mapped stack) cost more than the statement itself.
    const [chat] = await this.prisma.chat.updateManyAndReturn({
      where: { ...key, OR: [{ turnUntil: null }, { turnUntil: { lt: new Date() } }] },
      data: hold,
      select,
    });
    if (!chat) {
      // No free chat with this id: none yet (create it, held), or another turn holds it (the create collides).
      try {
        const created = await this.prisma.chat.create({ data: { ...key, sessionId: ref.sessionId, ...hold }, select });
        return { ...created, messages: [], stored: [] };
      } catch (createError) {
        if (isUniqueViolation(createError)) return undefined;
        throw createError;
      }
    }
    const rows = await this.prisma.chatMessage.findMany({ where: { chatId: chat.id }, orderBy: { position: "asc" } });
    const messages = rows.map(toUIMessage);
    return { ...chat, messages, stored: messages.map(serialize) };
  }

  /** Lets the next turn in: clears the hold if it is still this turn's. */
  async release(chat: OpenChat, lease: TurnLease): Promise<void> {
    await this.prisma.chat.updateMany({ where: { id: chat.id, turnId: lease.id }, data: { turnId: null, turnUntil: null } });
  }

  /**
   * Writes the messages that differ from what was loaded (from the first change on); with `release`, the turn's hold ends
   * after them. Every statement counts (PGlite runs them on the event loop, between the chunks of other
   * chats), so only what changed is written: a turn appends, so the delete runs only when an earlier message changed
   * (answered approvals, a regenerated answer), and the chat row is written only for its title or the release (any update
   * of the row touches `updatedAt`, and claim() touched it when the turn began).
   */
  async save(chat: OpenChat, messages: UIMessage[], release?: TurnLease): Promise<void> {
    let first = 0;
    while (first < messages.length && first < chat.stored.length && serialize(messages[first]!) === chat.stored[first]) first++;
    const title = chat.title ?? titleOf(messages);
    const writes: Array<PrismaTypes.PrismaPromise<unknown>> = [];
    if (first < chat.stored.length) writes.push(this.prisma.chatMessage.deleteMany({ where: { chatId: chat.id, position: { gte: first } } }));
    if (first < messages.length) {
      const data = messages.slice(first).map((message, offset) => ({
        chatId: chat.id,
        messageId: message.id,
        position: first + offset,
        role: message.role,
        parts: toJson(message.parts) as JsonValue[],
        ...(message.metadata === undefined ? {} : { metadata: toJson(message.metadata) as { [key: string]: JsonValue } }),
      }));
      writes.push(this.prisma.chatMessage.createMany({ data }));
    }
    if (release) writes.push(this.prisma.chat.updateMany({ where: { id: chat.id, turnId: release.id }, data: { turnId: null, turnUntil: null, title } }));
    else if (title !== chat.title) writes.push(this.prisma.chat.update({ where: { id: chat.id }, data: { title } }));
    // A delete and the rewrite after it go together; appended messages and the chat row's update do not need a
    // transaction (BEGIN and COMMIT were half of a turn's final statements): messages first, so whoever claims the
    // released chat sees them, and a hold whose release fails lapses at its `until`.
    const rewrites = first < chat.stored.length;
    if (rewrites) await this.prisma.$transaction(writes, SAVE_WAIT);
    else for (const write of writes) await write;
    chat.stored = messages.map(serialize);
    chat.title = title;
  }

  /** The owner's chats with this assistant, most recent first. */
  async list(assistant: AssistantName, owner: string): Promise<ChatSummary[]> {
    const rows = await this.prisma.chat.findMany({
      where: { assistant, owner, messages: { some: {} } },
      orderBy: { updatedAt: "desc" },
      take: LIST_LIMIT,
    });
    return rows.map((row) => ({ id: row.clientId, title: row.title, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() }));
  }

  /** One of the owner's chats with its messages, or null (also for another owner's chat id). */
  async get(assistant: AssistantName, owner: string, clientId: string): Promise<(ChatSummary & { messages: UIMessage[] }) | null> {
    const row = await this.prisma.chat.findUnique({
      where: { assistant_owner_clientId: { assistant, owner, clientId } },
      include: { messages: { orderBy: { position: "asc" } } },
    });
    if (!row) return null;
    return { id: row.clientId, title: row.title, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString(), messages: row.messages.map(toUIMessage) };
  }
}

/** A stored row as the AI SDK UI message it was saved from (written by save(), so its shape is trusted). */
function toUIMessage(row: ChatMessage): UIMessage {
  return { id: row.messageId, role: row.role, parts: row.parts, ...(row.metadata === null ? {} : { metadata: row.metadata }) } as UIMessage;
}

function isUniqueViolation(error: unknown): boolean {
  const code = dbErrorCode(error);
  return code === "P2002" || code === "23505";
}

function serialize(message: UIMessage): string {
  return JSON.stringify([message.id, message.role, message.parts, message.metadata ?? null]);
}

function titleOf(messages: UIMessage[]): string | null {
  const first = messages.find((message) => message.role === "user");
  const text = first?.parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join(" ").trim();
  if (!text) return null;
  return text.length > TITLE_CHARS ? `${text.slice(0, TITLE_CHARS - 1)}…` : text;
}
