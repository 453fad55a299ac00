-- The OAuth authorization server (issue 41): oidc-provider's records in one table, keyed by model and id, so every
-- process of a deployment sees the same codes, tokens, grants and registered clients.
CREATE TABLE "OAuthRecord" (
    "kind" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "grantId" TEXT,
    "userCode" TEXT,
    "uid" TEXT,
    "expiresAt" TIMESTAMP(3),
    "consumedAt" TIMESTAMP(3),
    "lastUsedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "OAuthRecord_pkey" PRIMARY KEY ("kind","id")
);
CREATE INDEX "OAuthRecord_grantId_idx" ON "OAuthRecord"("grantId");
CREATE INDEX "OAuthRecord_uid_idx" ON "OAuthRecord"("uid");
CREATE INDEX "OAuthRecord_expiresAt_idx" ON "OAuthRecord"("expiresAt");
