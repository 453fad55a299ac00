-- Catalogue search at a million products (issue 38): the listing order as a number per product, so a search sorts its
-- hits as numbers and walks one covering index instead of comparing names in the Danish ICU order row by row, and each
-- product's search text and Danish full-text vector kept in columns, so no query stems or lower-cases rows.
--
-- "listingRank" (numeric) never decreases along featured DESC, name, slug in catalog_order: a product created, renamed,
-- re-slugged or (un)featured takes the midpoint of its two neighbours' ranks, or, where they are already within 10^-40
-- of each other (many products placed one after the other in one gap), its predecessor's rank: equal ranks are ordered
-- by name and slug, so searches order by ("listingRank", name, slug) and stay exact; no other row is ever renumbered
-- and two writers placing products at once need no lock (each rank lies between its neighbours'). Stock and price are
-- not part of it, so a sale writes no rank. "searchText" is catalog_text(...),
-- "searchVector" its catalog_danish vector; both are set when the name, brand or a colour changes. One trigger keeps all
-- three; it runs only where the catalogue-search migration made its objects (PostgreSQL with contrib and ICU), as does
-- everything below: PGlite and servers without those keep their catalogue in memory (catalog-engine.ts).
DO $outer$
BEGIN
  IF to_regproc('catalog_text') IS NULL THEN
    RETURN;
  END IF;

  -- Superseded below: the listing now walks "listingRank", the word indexes are on the new columns.
  DROP INDEX IF EXISTS "Product_listing_idx";
  DROP INDEX IF EXISTS "Product_category_listing_idx";
  DROP INDEX IF EXISTS "Product_search_trgm_idx";
  DROP INDEX IF EXISTS "Product_search_fts_idx";

  ALTER TABLE "Product" ADD COLUMN "listingRank" numeric, ADD COLUMN "searchText" text, ADD COLUMN "searchVector" tsvector;
  UPDATE "Product" p
     SET "listingRank" = r.rank,
         "searchText" = catalog_text(p.name, p.brand, p."frameColor", p."lensColor"),
         "searchVector" = to_tsvector('catalog_danish', catalog_text(p.name, p.brand, p."frameColor", p."lensColor"))
    FROM (SELECT id, row_number() OVER (ORDER BY featured DESC, name COLLATE catalog_order, slug COLLATE catalog_order) AS rank
            FROM "Product") r
   WHERE r.id = p.id;

  EXECUTE $sql$
    CREATE FUNCTION catalog_listing_fields() RETURNS trigger LANGUAGE plpgsql AS $fn$
    DECLARE
      prev numeric;
      next numeric;
    BEGIN
      IF TG_OP = 'INSERT' OR NEW.name IS DISTINCT FROM OLD.name OR NEW.brand IS DISTINCT FROM OLD.brand
         OR NEW."frameColor" IS DISTINCT FROM OLD."frameColor" OR NEW."lensColor" IS DISTINCT FROM OLD."lensColor" THEN
        NEW."searchText" := catalog_text(NEW.name, NEW.brand, NEW."frameColor", NEW."lensColor");
        NEW."searchVector" := to_tsvector('catalog_danish', NEW."searchText");
      END IF;
      IF TG_OP = 'UPDATE' AND NEW.name = OLD.name AND NEW.slug = OLD.slug AND NEW.featured = OLD.featured
         AND OLD."listingRank" IS NOT NULL THEN
        RETURN NEW;
      END IF;
      SELECT "listingRank" INTO prev FROM "Product"
       WHERE featured = NEW.featured AND id <> NEW.id
         AND (name COLLATE catalog_order, slug COLLATE catalog_order) <= (NEW.name COLLATE catalog_order, NEW.slug COLLATE catalog_order)
       ORDER BY name COLLATE catalog_order DESC, slug COLLATE catalog_order DESC LIMIT 1;
      IF NOT FOUND AND NOT NEW.featured THEN
        SELECT "listingRank" INTO prev FROM "Product" WHERE featured AND id <> NEW.id
         ORDER BY name COLLATE catalog_order DESC, slug COLLATE catalog_order DESC LIMIT 1;
      END IF;
      SELECT "listingRank" INTO next FROM "Product"
       WHERE featured = NEW.featured AND id <> NEW.id
         AND (name COLLATE catalog_order, slug COLLATE catalog_order) > (NEW.name COLLATE catalog_order, NEW.slug COLLATE catalog_order)
       ORDER BY name COLLATE catalog_order, slug COLLATE catalog_order LIMIT 1;
      IF NOT FOUND AND NEW.featured THEN
        SELECT "listingRank" INTO next FROM "Product" WHERE NOT featured AND id <> NEW.id
         ORDER BY name COLLATE catalog_order, slug COLLATE catalog_order LIMIT 1;
      END IF;
      NEW."listingRank" := CASE
        WHEN prev IS NULL AND next IS NULL THEN 1
        WHEN prev IS NULL THEN ceil(next) - 1
        WHEN next IS NULL THEN trunc(prev) + 1
        WHEN next - prev < 1e-40 THEN prev
        ELSE round((prev + next) * 0.5, 41)
      END;
      RETURN NEW;
    END
    $fn$
  $sql$;
  EXECUTE $sql$
    CREATE TRIGGER "Product_listing_fields" BEFORE INSERT OR UPDATE OF name, slug, featured, brand, "frameColor", "lensColor"
      ON "Product" FOR EACH ROW EXECUTE FUNCTION catalog_listing_fields()
  $sql$;

  -- Where a new or renamed product's neighbours are found (every product, deleted and drafts too: one order for all).
  EXECUTE $sql$
    CREATE INDEX "Product_order_idx" ON "Product" (featured DESC, name COLLATE catalog_order, slug COLLATE catalog_order)
  $sql$;
  -- Listings walk these in order and stop at the page's end; the columns the filters and words read are in the index,
  -- so a walk reads no table rows but the page's (and, for the stock filter, those it checks).
  EXECUTE $sql$
    CREATE INDEX "Product_rank_idx" ON "Product" ("listingRank", name COLLATE catalog_order, slug COLLATE catalog_order)
      INCLUDE (id, "searchText", "categoryId", "priceDkk", featured, brand, "frameColor", "lensColor")
      WHERE "deletedAt" IS NULL AND NOT draft
  $sql$;
  EXECUTE $sql$
    CREATE INDEX "Product_category_rank_idx" ON "Product" ("categoryId", "listingRank", name COLLATE catalog_order, slug COLLATE catalog_order)
      INCLUDE (id, "searchText", "priceDkk", featured, brand, "frameColor", "lensColor")
      WHERE "deletedAt" IS NULL AND NOT draft
  $sql$;
  -- A category with a price range (the storefront's filters) read from one range, not two bitmaps of the whole shelf.
  EXECUTE $sql$
    CREATE INDEX "Product_category_price_idx" ON "Product" ("categoryId", "priceDkk") WHERE "deletedAt" IS NULL AND NOT draft
  $sql$;
  EXECUTE $sql$
    CREATE INDEX "Product_search_trgm_idx" ON "Product" USING GIN ("searchText" gin_trgm_ops) WHERE "deletedAt" IS NULL
  $sql$;
  EXECUTE $sql$
    CREATE INDEX "Product_search_fts_idx" ON "Product" USING GIN ("searchVector") WHERE "deletedAt" IS NULL
  $sql$;
END
$outer$;
