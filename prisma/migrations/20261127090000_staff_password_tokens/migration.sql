-- E-mailed links to choose a staff password (invitations and resets), stored hashed; an invited user has no password yet.
ALTER TABLE "AdminUser" ALTER COLUMN "passwordHash" DROP NOT NULL;

CREATE TABLE "StaffPasswordToken" (
    "id" TEXT NOT NULL,
    "staffId" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "StaffPasswordToken_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "StaffPasswordToken_purpose" CHECK ("purpose" IN ('invite', 'reset'))
);
CREATE UNIQUE INDEX "StaffPasswordToken_tokenHash_key" ON "StaffPasswordToken"("tokenHash");
CREATE INDEX "StaffPasswordToken_staffId_idx" ON "StaffPasswordToken"("staffId");
ALTER TABLE "StaffPasswordToken" ADD CONSTRAINT "StaffPasswordToken_staffId_fkey" FOREIGN KEY ("staffId") REFERENCES "AdminUser"("id") ON DELETE CASCADE ON UPDATE CASCADE;
