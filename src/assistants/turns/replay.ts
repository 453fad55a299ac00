// The chunks that rebuild a stored assistant message, for the replay of a turn that continues it (an approval's
// continuation). A replay resets the client's copy at its first `start` chunk (`resumeStreamIsReplay`), but the
// continuation's own chunks only add to the message (a tool's output, the next step's text): without the message's
// earlier parts in front of them the client fails ("No tool invocation found") and shows an empty answer.
import { getToolName, isToolUIPart, type UIMessage, type UIMessageChunk } from "ai";

type ToolPart = Extract<UIMessage["parts"][number], { toolCallId: string }>;

function toolChunks(part: ToolPart): UIMessageChunk[] {
  const { toolCallId } = part;
  const dynamic = part.type === "dynamic-tool" ? { dynamic: true as const } : {};
  const chunks: UIMessageChunk[] = [{ type: "tool-input-available", toolCallId, toolName: getToolName(part), input: part.input, ...dynamic }];
  const approval = part.approval;
  if (approval) {
    chunks.push({ type: "tool-approval-request", approvalId: approval.id, toolCallId, ...(approval.signature ? { signature: approval.signature } : {}) });
    if (approval.approved !== undefined) {
      chunks.push({ type: "tool-approval-response", approvalId: approval.id, approved: approval.approved, ...(approval.reason ? { reason: approval.reason } : {}) });
    }
  }
  if (part.state === "output-available") chunks.push({ type: "tool-output-available", toolCallId, output: part.output, ...dynamic });
  if (part.state === "output-error") chunks.push({ type: "tool-output-error", toolCallId, errorText: part.errorText, ...dynamic });
  if (part.state === "output-denied") chunks.push({ type: "tool-output-denied", toolCallId });
  return chunks;
}

/**
 * The parts of `message` as UI message chunks (steps, text, tool calls with their approvals and outcomes), to follow
 * the continuation's `start` chunk in a replay. The assistants store no other kinds of parts (reasoning is not sent).
 */
export function messageChunks(message: UIMessage): UIMessageChunk[] {
  const chunks: UIMessageChunk[] = [];
  let steps = 0;
  message.parts.forEach((part, index) => {
    if (part.type === "step-start") {
      if (steps++ > 0) chunks.push({ type: "finish-step" });
      chunks.push({ type: "start-step" });
    } else if (part.type === "text") {
      const id = `replay-${index}`;
      chunks.push({ type: "text-start", id }, { type: "text-delta", id, delta: part.text }, { type: "text-end", id });
    } else if (isToolUIPart(part)) {
      chunks.push(...toolChunks(part));
    }
  });
  if (steps > 0) chunks.push({ type: "finish-step" });
  return chunks;
}
