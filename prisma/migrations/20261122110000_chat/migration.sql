-- Conversations with the storefront and admin assistants: one Chat per (assistant, owner, client chat id), its UI messages in order.
CREATE TABLE "Chat" (
    "id" TEXT NOT NULL,
    "assistant" TEXT NOT NULL,
    "owner" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "sessionId" TEXT,
    "title" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "Chat_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "ChatMessage" (
    "id" TEXT NOT NULL,
    "chatId" TEXT NOT NULL,
    "messageId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "role" TEXT NOT NULL,
    "parts" JSONB NOT NULL,
    "metadata" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "ChatMessage_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "Chat_assistant_owner_clientId_key" ON "Chat"("assistant", "owner", "clientId");
CREATE INDEX "Chat_owner_updatedAt_idx" ON "Chat"("owner", "updatedAt");
CREATE UNIQUE INDEX "ChatMessage_chatId_messageId_key" ON "ChatMessage"("chatId", "messageId");
CREATE UNIQUE INDEX "ChatMessage_chatId_position_key" ON "ChatMessage"("chatId", "position");

ALTER TABLE "Chat" ADD CONSTRAINT "Chat_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "StorefrontSession"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "ChatMessage" ADD CONSTRAINT "ChatMessage_chatId_fkey" FOREIGN KEY ("chatId") REFERENCES "Chat"("id") ON DELETE CASCADE ON UPDATE CASCADE;
