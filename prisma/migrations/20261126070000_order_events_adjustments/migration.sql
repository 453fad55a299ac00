-- Fulfilment events and adjustments recorded on an order from outside (UCP order updates), append-only lists.
ALTER TABLE "Order" ADD COLUMN "fulfillmentEvents" JSONB NOT NULL DEFAULT '[]';
ALTER TABLE "Order" ADD COLUMN "adjustments" JSONB NOT NULL DEFAULT '[]';
