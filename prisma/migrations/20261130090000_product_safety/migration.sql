-- Product safety information (GPSR, regulation (EU) 2023/988 art. 19): the manufacturer, the EU responsible person
-- and warnings in Danish, shown on the product page; one JSON value per product, null until the owner fills it in.
ALTER TABLE "Product" ADD COLUMN "safety" JSONB;
