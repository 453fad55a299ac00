// One message of the admin assistant's conversation as DOM: the staff user's text as typed, the assistant's text as
// Markdown and its tool calls as cards (src/web/client/chat/admin-tool.ts). Other parts (steps, reasoning) are not shown.
import { isToolUIPart, type UIMessage } from "ai";
import { renderMarkdown } from "./markdown.ts";
import { renderToolPart, type Decide } from "./admin-tool.ts";

export function renderMessage(message: UIMessage, decide: Decide): HTMLElement {
  const node = document.createElement("div");
  node.className = `chat-message chat-message-${message.role}`;
  node.dataset.role = message.role;
  const who = document.createElement("span");
  who.className = "visually-hidden";
  who.textContent = message.role === "user" ? "Du skrev:" : "Assistenten:";
  node.append(who);
  for (const part of message.parts) {
    if (part.type === "text") {
      if (!part.text) continue;
      const text = document.createElement("div");
      if (message.role === "user") {
        text.className = "chat-bubble";
        text.textContent = part.text;
      } else {
        text.className = "chat-text";
        text.append(renderMarkdown(part.text));
      }
      node.append(text);
    } else if (isToolUIPart(part)) {
      node.append(renderToolPart(part, decide));
    }
  }
  return node;
}
