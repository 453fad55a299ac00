-- Why an agent canceled a checkout session (ACP intent trace: reason code and summary), kept for analytics.
ALTER TABLE "CheckoutSession" ADD COLUMN "intentTrace" JSONB;
