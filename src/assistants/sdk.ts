// What the main thread needs of the AI SDK for a turn (the conversation rules and the replay of a continued message), in
// one module that ChatService imports with the first turn: a server whose assistants are never asked, or have no
// OPENAI_API_KEY, does not load the SDK (about 8 MB resident). The tool loop itself runs in src/assistants/turn.ts.
export { nextHistory, recent } from "./conversation.ts";
export { messageChunks } from "./replay.ts";
