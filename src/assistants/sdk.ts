// What a chat turn needs of the AI SDK, in one module that ChatService imports with the first turn: a server whose
// assistants are never asked, or have no OPENAI_API_KEY, does not load the SDK (about 8 MB resident).
export {
  convertToModelMessages,
  experimental_streamTextLowMemory as streamTextLowMemory,
  generateId,
  isStepCount,
  toUIMessageStream,
} from "ai";
export { nextHistory, recent } from "./conversation.ts";
export { messageChunks } from "./replay.ts";
export { buildToolSet, offeredTools } from "./tools.ts";
