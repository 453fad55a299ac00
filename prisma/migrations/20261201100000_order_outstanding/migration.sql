-- What is still to collect on a paid order (an item edit that raised its total, or a change of payment method by link);
-- the order does not ship while it is above zero.
ALTER TABLE "Order" ADD COLUMN "outstandingDkk" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "Order" ADD CONSTRAINT "Order_outstandingDkk_check" CHECK ("outstandingDkk" >= 0);
ALTER TABLE "Order" ADD COLUMN "outstandingUrl" TEXT;
