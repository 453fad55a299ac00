-- Draft products: saved but hidden from shoppers until published.
ALTER TABLE "Product" ADD COLUMN "draft" BOOLEAN NOT NULL DEFAULT false;
