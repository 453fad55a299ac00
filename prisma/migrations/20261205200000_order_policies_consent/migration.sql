-- The shop's policy texts (returns, shipping, privacy, terms) as they stood when a checkout session placed the order: the
-- order answers them as its policies later, whatever the shop's terms say by then.
ALTER TABLE "Order" ADD COLUMN "policySnapshot" JSONB;
-- The buyer's consent per purpose (and its segments) as a protocol door gave it, with who asserted each decision.
ALTER TABLE "CheckoutSession" ADD COLUMN "consent" JSONB;
