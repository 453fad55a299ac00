-- The payment ledger of orders, bank-transfer refund tasks, and gift cards with their movements.
CREATE TABLE "PaymentEntry" (
    "id" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "amountDkk" BIGINT NOT NULL,
    "reference" TEXT,
    "actor" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "PaymentEntry_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "PaymentEntry_amount_positive" CHECK ("amountDkk" > 0),
    CONSTRAINT "PaymentEntry_kind" CHECK ("kind" IN ('payment', 'refund', 'store_credit'))
);
CREATE INDEX "PaymentEntry_orderId_createdAt_idx" ON "PaymentEntry"("orderId", "createdAt");
ALTER TABLE "PaymentEntry" ADD CONSTRAINT "PaymentEntry_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "RefundTask" (
    "id" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "amountDkk" BIGINT NOT NULL,
    "account" TEXT,
    "status" TEXT NOT NULL DEFAULT 'open',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "doneAt" TIMESTAMP(3),
    "doneBy" TEXT,
    CONSTRAINT "RefundTask_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "RefundTask_status_createdAt_idx" ON "RefundTask"("status", "createdAt");
CREATE INDEX "RefundTask_orderId_idx" ON "RefundTask"("orderId");
ALTER TABLE "RefundTask" ADD CONSTRAINT "RefundTask_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "GiftCard" (
    "id" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "balanceDkk" BIGINT NOT NULL,
    "initialDkk" BIGINT NOT NULL,
    "currency" TEXT NOT NULL DEFAULT 'DKK',
    "customerEmail" TEXT,
    "reason" TEXT,
    "source" TEXT NOT NULL,
    "orderId" TEXT,
    "expiresAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "GiftCard_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "GiftCard_balance_not_negative" CHECK ("balanceDkk" >= 0)
);
CREATE UNIQUE INDEX "GiftCard_code_key" ON "GiftCard"("code");
CREATE INDEX "GiftCard_customerEmail_idx" ON "GiftCard"("customerEmail");

CREATE TABLE "GiftCardMovement" (
    "id" TEXT NOT NULL,
    "giftCardId" TEXT NOT NULL,
    "amountDkk" BIGINT NOT NULL,
    "orderId" TEXT,
    "actor" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "GiftCardMovement_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "GiftCardMovement_giftCardId_createdAt_idx" ON "GiftCardMovement"("giftCardId", "createdAt");
ALTER TABLE "GiftCardMovement" ADD CONSTRAINT "GiftCardMovement_giftCardId_fkey" FOREIGN KEY ("giftCardId") REFERENCES "GiftCard"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Orders paid or refunded before the ledger get the entries their columns imply.
INSERT INTO "PaymentEntry" ("id", "orderId", "kind", "method", "amountDkk", "reference", "actor", "createdAt")
SELECT 'pay_' || o."id", o."id", 'payment', COALESCE(o."paymentMethod", CASE WHEN o."paymentProvider" = 'manual' THEN 'bank_transfer' ELSE 'card' END),
       o."totalDkk", o."paymentProviderPaymentIntentId", 'system:ledger-backfill', o."paidAt"
FROM "Order" o WHERE o."paidAt" IS NOT NULL AND o."totalDkk" > 0;
INSERT INTO "PaymentEntry" ("id", "orderId", "kind", "method", "amountDkk", "reference", "actor", "createdAt")
SELECT 'ref_' || o."id", o."id", 'refund', COALESCE(o."paymentMethod", CASE WHEN o."paymentProvider" = 'manual' THEN 'bank_transfer' ELSE 'card' END),
       o."refundedDkk", NULL, 'system:ledger-backfill', COALESCE(o."refundedAt", o."updatedAt")
FROM "Order" o WHERE o."refundedDkk" > 0;
