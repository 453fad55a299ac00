// Conversations on the server: a chat per (assistant, owner, client chat id) and its UI messages, the only history the
// model sees. The assistants (src/assistants/) are doors; the SQL of their chats lives here, below them.
import type { UIMessage } from "ai";
import crypto from "node:crypto";
import type { Database, Prisma } from "../../core/db.ts";
import type { ChatMessage } from "../../generated/prisma/client.ts";
import { toJson, type JsonValue } from "../../core/json.ts";
import { storable } from "../../core/well-formed-input.ts";

/** The two assistants (their configuration: src/assistants/assistant-profiles.ts). */
export type AssistantName = "storefront" | "admin";

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

/** One turn's hold on its chat: its id, and how long the hold lasts from its claim or renewal unless renewed again. */
export interface TurnLease {
  id: string;
  holdMs: number;
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

/**
 * The statements of a turn are SQL of their own (claim, append-and-release, release): a turn runs about five of them,
 * and through Prisma each cost 0.5–1 ms more than the statement (PGlite runs them on the event loop, between the chunks
 * of other chats). Reads for the chat list and the rare rewrite of earlier messages stay on Prisma. Timestamps are
 * written as UTC like Prisma writes them (`timestamp(3)` columns hold UTC wall time), whatever the session's time zone.
 */
export class ChatStore {
  private readonly prisma: Prisma;
  private readonly sql: Pick<Database, "query">;

  constructor(prisma: Prisma, sql: Pick<Database, "query">) {
    this.prisma = prisma;
    this.sql = sql;
  }

  /**
   * Takes the chat for one turn (created empty when the owner has none with this id) and loads its messages; undefined
   * while another turn, in any process, holds it. The hold is a row update, so every process sharing the database agrees,
   * and it lapses by the database's clock, which they share too.
   */
  async claim(ref: ChatRef, lease: TurnLease): Promise<OpenChat | undefined> {
    const now = new Date().toISOString();
    const rows = await this.sql.query<ChatRow & Partial<MessageRow>>(CLAIM, [ref.assistant, ref.owner, ref.clientId, lease.id, lease.holdMs, now]);
    if (rows.length === 0) {
      // No free chat with this id: none yet (create it, held), or another turn holds it (the insert finds the row).
      const [created] = await this.sql.query<ChatRow>(CREATE, [crypto.randomUUID(), ref.assistant, ref.owner, ref.clientId, ref.sessionId, lease.id, lease.holdMs, now]);
      return created && { ...created, messages: [], stored: [] };
    }
    const { id, clientId, title } = rows[0]!;
    const messages = rows.flatMap((row) => (row.messageId == null ? [] : [toUIMessage(row as MessageRow)]));
    return { id, clientId, title, messages, stored: messages.map(serialize) };
  }

  /** Extends these turns' holds to `holdMs` from now; the lease ids still held (another turn may have taken a lapsed one). */
  async renew(holds: Array<{ chatId: string; lease: string }>, holdMs: number): Promise<string[]> {
    const rows = await this.sql.query<{ turnId: string }>(RENEW, [JSON.stringify(holds), holdMs]);
    return rows.map((row) => row.turnId);
  }

  /** Lets the next turn in: clears the hold if it is still this turn's. */
  async release(chat: OpenChat, lease: TurnLease): Promise<void> {
    await this.sql.query(`UPDATE "Chat" SET "turnId" = NULL, "turnUntil" = NULL, "updatedAt" = ${UTC("$3")} WHERE "id" = $1 AND "turnId" = $2`, [chat.id, lease.id, new Date().toISOString()]);
  }

  /**
   * Writes the messages that differ from what was loaded (from the first change on); with `release`, the turn's hold ends
   * with them. A turn appends: its new messages, the title when it changes and the release are one statement (any
   * update of the chat row touches `updatedAt`, and claim() touched it when the turn began, so the row is written only
   * for its title or the release). An earlier message that changed (answered approvals, a regenerated answer) means a
   * delete and a rewrite from there, in one transaction.
   */
  async save(chat: OpenChat, messages: UIMessage[], release?: TurnLease): Promise<void> {
    const kept = messages.map(storableMessage);
    let first = 0;
    while (first < kept.length && first < chat.stored.length && kept[first]!.json === chat.stored[first]) first++;
    const title = chat.title ?? titleOf(kept.map(({ message }) => message));
    const added = kept.slice(first).map(({ message }, offset) => ({
      id: crypto.randomUUID(),
      messageId: message.id,
      position: first + offset,
      role: message.role,
      parts: toJson(message.parts),
      metadata: message.metadata === undefined ? null : toJson(message.metadata),
    }));
    if (first < chat.stored.length) await this.rewrite(chat, first, added, title, release);
    else await this.append(chat, added, title, release);
    chat.stored = kept.map(({ json }) => json);
    chat.title = title;
  }

  private async append(chat: OpenChat, added: NewMessage[], title: string | null, release?: TurnLease): Promise<void> {
    const touchesChat = release !== undefined || title !== chat.title;
    if (added.length === 0 && !touchesChat) return;
    const params: unknown[] = [chat.id, new Date().toISOString(), JSON.stringify(added)];
    const insert = added.length ? APPEND : undefined;
    let update: string | undefined;
    if (touchesChat) {
      params.push(title);
      update = release
        ? `UPDATE "Chat" SET "turnId" = NULL, "turnUntil" = NULL, "title" = $4, "updatedAt" = ${UTC("$2")} WHERE "id" = $1 AND "turnId" = $${params.push(release.id)}`
        : `UPDATE "Chat" SET "title" = $4, "updatedAt" = ${UTC("$2")} WHERE "id" = $1`;
    }
    const statement = insert && update ? `WITH added AS (${insert}) ${update}` : (insert ?? update)!;
    await this.sql.query(statement, params);
  }

  private async rewrite(chat: OpenChat, first: number, added: NewMessage[], title: string | null, release?: TurnLease): Promise<void> {
    const data = added.map(({ id: _id, parts, metadata, ...message }) => ({
      ...message,
      chatId: chat.id,
      parts: parts as JsonValue[],
      ...(metadata === null ? {} : { metadata: metadata as { [key: string]: JsonValue } }),
    }));
    await this.prisma.$transaction(
      [
        this.prisma.chatMessage.deleteMany({ where: { chatId: chat.id, position: { gte: first } } }),
        ...(data.length ? [this.prisma.chatMessage.createMany({ data })] : []),
        release
          ? this.prisma.chat.updateMany({ where: { id: chat.id, turnId: release.id }, data: { turnId: null, turnUntil: null, title } })
          : this.prisma.chat.update({ where: { id: chat.id }, data: { title } }),
      ],
      SAVE_WAIT,
    );
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

/** `$n`, an ISO timestamp parameter, as the UTC `timestamp(3)` the columns hold. */
const UTC = (param: string) => `(${param}::timestamptz AT TIME ZONE 'UTC')`;
/** The database's clock as such a timestamp: every process sharing the database reads the same one. */
const DB_NOW = `(now() AT TIME ZONE 'UTC')`;
/** The end of a hold of `$n` milliseconds from now. */
const HOLD_UNTIL = (param: string) => `${DB_NOW} + ${param}::int * interval '1 millisecond'`;

type ChatRow = Pick<OpenChat, "id" | "clientId" | "title">;
type MessageRow = Pick<ChatMessage, "messageId" | "role" | "parts" | "metadata">;
type NewMessage = { id: string; messageId: string; position: number; role: string; parts: JsonValue; metadata: JsonValue };

/** The hold on a free chat (no turn, or one whose hold lapsed), with the chat's messages in order ($1–$3 the chat, $4 $5 the lease, $6 now). */
const CLAIM = `
  WITH held AS (
    UPDATE "Chat" SET "turnId" = $4, "turnUntil" = ${HOLD_UNTIL("$5")}, "updatedAt" = ${UTC("$6")}
    WHERE "assistant" = $1 AND "owner" = $2 AND "clientId" = $3 AND ("turnUntil" IS NULL OR "turnUntil" < ${DB_NOW})
    RETURNING "id", "clientId", "title"
  )
  SELECT held."id", held."clientId", held."title", m."messageId", m."role", m."parts", m."metadata"
  FROM held LEFT JOIN "ChatMessage" m ON m."chatId" = held."id"
  ORDER BY m."position"`;

/** A new chat, held by the turn; no row when the chat exists (held by another turn). */
const CREATE = `
  INSERT INTO "Chat" ("id", "assistant", "owner", "clientId", "sessionId", "turnId", "turnUntil", "createdAt", "updatedAt")
  VALUES ($1, $2, $3, $4, $5, $6, ${HOLD_UNTIL("$7")}, ${UTC("$8")}, ${UTC("$8")})
  ON CONFLICT ("assistant", "owner", "clientId") DO NOTHING
  RETURNING "id", "clientId", "title"`;

/** The holds $1 (a JSON array of {chatId, lease}) extended to $2 milliseconds from now, where the turn still holds its chat. */
const RENEW = `
  UPDATE "Chat" SET "turnUntil" = ${HOLD_UNTIL("$2")}
  FROM jsonb_to_recordset($1::jsonb) AS h("chatId" text, "lease" text)
  WHERE "Chat"."id" = h."chatId" AND "Chat"."turnId" = h."lease"
  RETURNING "Chat"."turnId"`;

/** Messages ($3, a JSON array of NewMessage) appended to chat $1 at $2. */
const APPEND = `
  INSERT INTO "ChatMessage" ("id", "chatId", "messageId", "position", "role", "parts", "metadata", "createdAt", "updatedAt")
  SELECT m."id", $1, m."messageId", m."position", m."role", m."parts", m."metadata", ${UTC("$2")}, ${UTC("$2")}
  FROM jsonb_to_recordset($3::jsonb) AS m("id" text, "messageId" text, "position" int, "role" text, "parts" jsonb, "metadata" jsonb)`;

/** A stored row as the AI SDK UI message it was saved from (written by save(), so its shape is trusted). */
function toUIMessage(row: MessageRow): UIMessage {
  return { id: row.messageId, role: row.role, parts: row.parts, ...(row.metadata === null ? {} : { metadata: row.metadata }) } as UIMessage;
}

function serialize(message: UIMessage): string {
  return JSON.stringify([message.id, message.role, message.parts, message.metadata ?? null]);
}

/** JSON.stringify writes U+0000 and a lone surrogate as these escapes (a surrogate pair stays as it is). */
const ILL_FORMED_ESCAPE = /\\u(?:0000|d[89a-f])/;

/**
 * A message as it can be stored, and its stored form: PostgreSQL's jsonb refuses U+0000 and lone surrogates, which a
 * model may write (in its text or a tool input) and a person may send, so they are stored as U+FFFD. Its JSON says
 * whether a message holds any, so only such a message is copied.
 */
function storableMessage(message: UIMessage): { message: UIMessage; json: string } {
  const json = serialize(message);
  if (!ILL_FORMED_ESCAPE.test(json)) return { message, json };
  const kept = storable(message);
  return { message: kept, json: serialize(kept) };
}

function titleOf(messages: UIMessage[]): string | null {
  const first = messages.find((message) => message.role === "user");
  const text = first?.parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join(" ").trim();
  if (!text) return null;
  return text.length > TITLE_CHARS ? `${text.slice(0, TITLE_CHARS - 1)}…` : text;
}
