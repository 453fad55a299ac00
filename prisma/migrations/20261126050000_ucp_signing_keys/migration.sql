-- Order events of UCP checkouts go to the agent profile's webhook URL, remembered on the session.
ALTER TABLE "CheckoutSession" ADD COLUMN "webhookUrl" TEXT;

-- The shop's signing keys (ES256) for UCP webhooks.
CREATE TABLE "SigningKey" (
    "kid" TEXT NOT NULL,
    "slot" TEXT,
    "publicJwk" JSONB NOT NULL,
    "privateKey" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SigningKey_pkey" PRIMARY KEY ("kid")
);

CREATE UNIQUE INDEX "SigningKey_slot_key" ON "SigningKey"("slot");
