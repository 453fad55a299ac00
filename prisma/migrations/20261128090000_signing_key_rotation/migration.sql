-- Signing-key rotation: a replaced key stays published for a grace period counted from when it stopped signing.
ALTER TABLE "SigningKey" ADD COLUMN "retiredAt" TIMESTAMP(3);
-- Keys replaced by hand before this get their grace period from now.
UPDATE "SigningKey" SET "retiredAt" = CURRENT_TIMESTAMP WHERE "slot" IS NULL;
