// One message of the admin assistant's conversation as DOM: the staff user's text as typed, the assistant's text as
// Markdown and its tool calls as cards (src/web/client/chat/admin-tool.ts). Other parts (steps, reasoning) are not shown.
import { isToolUIPart, type UIMessage } from "ai";
import { el } from "./dom.ts";
import { renderToolPart, type Decide } from "./admin-tool.ts";
import { renderMarkdown } from "./markdown.ts";

export function renderMessage(message: UIMessage, decide: Decide): HTMLElement {
  const node = el("div", { class: `chat-message chat-message-${message.role}` });
  node.dataset.role = message.role;
  node.append(el("span", { class: "visually-hidden" }, message.role === "user" ? "Du skrev:" : "Assistenten:"));
  for (const part of message.parts) {
    if (part.type === "text" && part.text) {
      if (message.role === "user") node.append(el("div", { class: "chat-bubble" }, part.text));
      else node.appendChild(el("div", { class: "chat-text" })).append(renderMarkdown(part.text));
    } else if (isToolUIPart(part)) {
      node.append(renderToolPart(part, decide));
    }
  }
  return node;
}
