// What the main thread needs of the AI SDK (frame and message checks, SSE headers, the conversation rules and the replay
// of a continued message), in one module loaded with the first chat request (src/assistants/load-sdk.ts): a server
// whose assistants are never asked does not load the SDK (about 8 MB resident). The tool loop runs in turns/tool-loop.ts.
export { safeValidateUIMessages, safeValidateWebSocketChatTransportRequest, UI_MESSAGE_STREAM_HEADERS } from "ai";
export { nextHistory, recent } from "./conversation.ts";
export { messageChunks } from "./turns/replay.ts";
