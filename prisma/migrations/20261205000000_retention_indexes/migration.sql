-- The hourly retention pass (src/tools/user/retention.ts) finds what is past its window by these columns.
CREATE INDEX "StorefrontSession_lastSeenAt_idx" ON "StorefrontSession"("lastSeenAt");
CREATE INDEX "LoginCode_expiresAt_idx" ON "LoginCode"("expiresAt");
CREATE INDEX "Chat_updatedAt_idx" ON "Chat"("updatedAt");
