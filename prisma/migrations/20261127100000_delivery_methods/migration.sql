-- The delivery method chosen at checkout and, for a parcel-shop method, the pickup point, kept on the order.
ALTER TABLE "Order" ADD COLUMN "deliveryMethodId" TEXT;
ALTER TABLE "Order" ADD COLUMN "deliveryMethodName" TEXT;
ALTER TABLE "Order" ADD COLUMN "deliveryCarrier" TEXT;
ALTER TABLE "Order" ADD COLUMN "pickupPoint" JSONB;
