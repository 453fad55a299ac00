-- Exchanges move the money paid for the returned goods to the replacement order: an entry may carry money paid on an
-- earlier order of the chain, which its refunds go back to.
ALTER TABLE "PaymentEntry" ADD COLUMN "sourceOrderId" TEXT;
CREATE INDEX "PaymentEntry_sourceOrderId_idx" ON "PaymentEntry"("sourceOrderId");
