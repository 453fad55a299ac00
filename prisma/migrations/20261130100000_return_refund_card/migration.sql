-- A refund may go onto a gift card the shopper names (topped up): a return keeps the card it was asked with, so receipt
-- credits it. ReturnRequest.refundTo now holds the destination asked at request (original | store_credit | gift_card),
-- and at receipt the one the refund went to.
ALTER TABLE "ReturnRequest" ADD COLUMN "refundGiftCardId" TEXT;
ALTER TABLE "ReturnRequest" ADD CONSTRAINT "ReturnRequest_refundGiftCardId_fkey" FOREIGN KEY ("refundGiftCardId") REFERENCES "GiftCard"("id") ON DELETE SET NULL ON UPDATE CASCADE;
