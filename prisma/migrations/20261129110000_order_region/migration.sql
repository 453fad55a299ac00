-- Order addresses keep their state or province, as the address book does, so an order to a country that has them is
-- complete (UCP address_region, ACP state).
ALTER TABLE "Order" ADD COLUMN "shippingRegion" TEXT;
ALTER TABLE "Order" ADD COLUMN "billingRegion" TEXT;
