// One incoming chat request (socket.io `send` frame or HTTP body), validated: the chat id, the trigger and the last message only.
import { z } from "zod";
import { Invalid } from "../core/errors.ts";
import { fieldErrors } from "../tools/executor.ts";
import type { TurnRequest } from "./conversation.ts";
import { loadSdk } from "./load-sdk.ts";

const CHAT_ID = z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, "A chat id is 1 to 100 letters, digits, _ or -");

const body = z.looseObject({
  id: CHAT_ID.describe("The chat id."),
  trigger: z.enum(["submit-message", "regenerate-message"]).default("submit-message"),
  messageId: z.string().max(200).nullish(),
  messages: z.array(z.unknown()).max(5_000).optional().describe("The whole history (stock clients); only the last one is read."),
  message: z.unknown().optional().describe("Only the last message (clients that send just that)."),
});

export async function parseTurnRequest(value: unknown): Promise<TurnRequest> {
  const parsed = body.safeParse(value);
  if (!parsed.success) throw new Invalid("The chat request does not match the AI SDK chat request shape.", fieldErrors(parsed.error));
  const { id, trigger, messages, message } = parsed.data;
  const last = message ?? messages?.at(-1);
  if (last === undefined) {
    if (trigger === "submit-message") throw new Invalid("The chat request carries no message.");
    return { chatId: id, trigger, message: undefined };
  }
  // The AI SDK loads with the first chat request, not at start-up (src/assistants/sdk.ts).
  const { safeValidateUIMessages } = await loadSdk();
  const checked = await safeValidateUIMessages({ messages: [last] });
  if (!checked.success) throw new Invalid(`The last message is not a valid UI message: ${checked.error.message.slice(0, 300)}`);
  return { chatId: id, trigger, message: checked.data[0] };
}
