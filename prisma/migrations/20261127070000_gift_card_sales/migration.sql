-- Gift cards sold as products: the product flag, and the key that issues a bought card once per order line and unit.
ALTER TABLE "Product" ADD COLUMN "giftCard" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "GiftCard" ADD COLUMN "purchaseKey" TEXT;
CREATE UNIQUE INDEX "GiftCard_purchaseKey_key" ON "GiftCard"("purchaseKey");
