-- A dearer exchange's difference may be paid from a gift card or store credit named at request: the return keeps
-- which card, so receipt debits it.
ALTER TABLE "ReturnRequest" ADD COLUMN "giftCardId" TEXT;
