-- Checkout sessions (agentic checkout core), the idempotency store of the protocol doors, and an order's shipping country.
ALTER TABLE "Order" ADD COLUMN "shippingCountry" TEXT NOT NULL DEFAULT 'DK';

CREATE TABLE "CheckoutSession" (
    "id" TEXT NOT NULL,
    "owner" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "lines" JSONB NOT NULL,
    "buyer" JSONB,
    "fulfillment" JSONB,
    "discountCodes" JSONB NOT NULL,
    "payment" JSONB,
    "view" JSONB NOT NULL,
    "protocol" TEXT NOT NULL,
    "protocolVersion" TEXT,
    "agentName" TEXT,
    "agentProfile" TEXT,
    "orderId" TEXT,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "completedAt" TIMESTAMP(3),
    "canceledAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CheckoutSession_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "CheckoutSession_orderId_key" ON "CheckoutSession"("orderId");
CREATE INDEX "CheckoutSession_owner_idx" ON "CheckoutSession"("owner");
CREATE INDEX "CheckoutSession_expiresAt_idx" ON "CheckoutSession"("expiresAt");

CREATE TABLE "IdempotencyRecord" (
    "id" TEXT NOT NULL,
    "caller" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "requestHash" TEXT NOT NULL,
    "status" INTEGER,
    "headers" JSONB,
    "body" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "IdempotencyRecord_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "IdempotencyRecord_caller_key_key" ON "IdempotencyRecord"("caller", "key");
CREATE INDEX "IdempotencyRecord_createdAt_idx" ON "IdempotencyRecord"("createdAt");
