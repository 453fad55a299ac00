-- Staff identity for the admin web: a scope list per staff user, server-side sessions, one-time setup links and
-- sign-in throttling (in the database, so every process behind a load balancer shares it, with or without Redis).
ALTER TABLE "AdminUser" ADD COLUMN "scopes" TEXT[] DEFAULT ARRAY['*']::TEXT[];
ALTER TABLE "AdminUser" ADD COLUMN "lastLoginAt" TIMESTAMP(3);

CREATE TABLE "StaffSession" (
    "id" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "staffId" TEXT NOT NULL,
    "address" TEXT,
    "userAgent" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "revokedAt" TIMESTAMP(3),
    CONSTRAINT "StaffSession_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "StaffSetupToken" (
    "id" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "StaffSetupToken_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "LoginThrottle" (
    "bucket" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "windowStart" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "LoginThrottle_pkey" PRIMARY KEY ("bucket")
);

CREATE UNIQUE INDEX "StaffSession_tokenHash_key" ON "StaffSession"("tokenHash");
CREATE INDEX "StaffSession_staffId_idx" ON "StaffSession"("staffId");
CREATE UNIQUE INDEX "StaffSetupToken_tokenHash_key" ON "StaffSetupToken"("tokenHash");

ALTER TABLE "StaffSession" ADD CONSTRAINT "StaffSession_staffId_fkey" FOREIGN KEY ("staffId") REFERENCES "AdminUser"("id") ON DELETE CASCADE ON UPDATE CASCADE;
