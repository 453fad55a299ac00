// The next history of a chat: the stored messages plus what the client may add, the new text or approval answers, and nothing else.
import { generateId, isToolUIPart, type UIMessage } from "ai";
import { Invalid, Refused } from "../core/errors.ts";

/** One incoming chat request, validated (parseTurnRequest in src/assistants/request.ts). */
export interface TurnRequest {
  /** The client's chat id (useChat `id`). */
  chatId: string;
  trigger: "submit-message" | "regenerate-message";
  /**
   * The last message the client sent: a user message (the new text) or the assistant message carrying the person's
   * approval responses. Everything before it is ignored: the server has the history.
   */
  message: UIMessage | undefined;
}

const REASON_CHARS = 500;
const MOVED_ON = "The person sent a new message instead of answering the approval request.";

type ToolPart = Extract<UIMessage["parts"][number], { toolCallId: string; state: string }>;

/**
 * The messages to answer, from the stored ones (never from the client's copy of the history):
 * - a user message appends its text (other parts are dropped) and denies approvals left unanswered;
 * - an assistant message may only answer the approval requests pending in the last stored message, by approval id;
 * - regenerate drops the last stored assistant answer.
 */
export function nextHistory(stored: UIMessage[], request: TurnRequest, maxMessageChars: number): UIMessage[] {
  const messages = structuredClone(stored);
  const last = messages.at(-1);
  if (request.trigger === "regenerate-message") {
    if (last?.role === "assistant") messages.pop();
    if (messages.at(-1)?.role !== "user") throw new Refused("nothing_to_regenerate", "There is no answer to regenerate in this chat.");
    return messages;
  }
  const incoming = request.message!;
  if (incoming.role === "user") {
    const text = incoming.parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n").trim();
    if (!text) throw new Invalid("The message has no text.");
    if (text.length > maxMessageChars) throw new Invalid(`The message is longer than ${maxMessageChars} characters.`);
    if (last?.role === "assistant") for (const part of pendingApprovals(last)) answer(part, false, MOVED_ON);
    const taken = new Set(messages.map((message) => message.id));
    const id = taken.has(incoming.id) ? generateId() : incoming.id;
    messages.push({ id, role: "user", parts: [{ type: "text", text }] });
    return messages;
  }
  if (incoming.role !== "assistant") throw new Invalid("Only user messages and approval responses can be sent.");
  const pending = last?.role === "assistant" ? pendingApprovals(last) : [];
  let answered = 0;
  for (const part of pending) {
    const reply = incoming.parts.find(
      (candidate): candidate is ToolPart =>
        isToolUIPart(candidate) && candidate.toolCallId === part.toolCallId && candidate.approval?.id === part.approval!.id,
    );
    const approved = reply?.approval?.approved;
    if (typeof approved !== "boolean") continue;
    const reason = typeof reply!.approval!.reason === "string" ? reply!.approval!.reason.slice(0, REASON_CHARS) : undefined;
    answer(part, approved, reason);
    answered++;
  }
  if (answered === 0) throw new Refused("no_pending_approval", "Nothing in this chat waits for that approval: there is no such pending request.");
  for (const part of pendingApprovals(last!)) answer(part, false, "Not answered.");
  return messages;
}

function pendingApprovals(message: UIMessage): ToolPart[] {
  return message.parts.filter((part): part is ToolPart => isToolUIPart(part) && part.state === "approval-requested");
}

function answer(part: ToolPart, approved: boolean, reason: string | undefined): void {
  Object.assign(part, { state: "approval-responded", approval: { ...part.approval, approved, ...(reason ? { reason } : {}) } });
}

/** The tail of the history handed to the model: at most `max` messages, starting at a user message. */
export function recent(messages: UIMessage[], max: number): UIMessage[] {
  let start = Math.max(0, messages.length - max);
  while (start > 0 && messages[start]!.role !== "user") start--;
  return messages.slice(start);
}
