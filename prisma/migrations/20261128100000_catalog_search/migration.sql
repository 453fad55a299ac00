-- Catalogue search in the database (issue 38). On PostgreSQL, products.search runs here instead of in every process's
-- memory: a word is a part of name, brand or colours (catalog_text, trigram GIN index: partial words), and when no
-- product has every word, Danish full-text (stems, accents removed: catalog_danish) and trigram word similarity
-- (typos) find the nearest; listings follow the Danish order of names (catalog_order, as Intl.Collator("da") with
-- base sensitivity). PGlite keeps its catalogue in memory (src/tools/products/catalog-engine.ts): where unaccent or an
-- ICU collation cannot be made, nothing below is created and that engine decides for memory.

-- Superseded by Product_search_trgm_idx (name, brand and colours in one expression).
DROP INDEX IF EXISTS "Product_name_trgm_idx";
DROP INDEX IF EXISTS "Product_brand_trgm_idx";

DO $outer$
BEGIN
  BEGIN
    CREATE EXTENSION IF NOT EXISTS unaccent;
    CREATE COLLATION IF NOT EXISTS catalog_order (provider = icu, locale = 'da-u-ks-level1', deterministic = false);
  EXCEPTION WHEN OTHERS THEN
    RAISE NOTICE 'catalogue search stays in memory: %', SQLERRM;
    RETURN;
  END;

  -- The searchable words of a product's own fields, lower-cased, one space between fields (a word never spans two).
  EXECUTE $sql$
    CREATE FUNCTION catalog_text(name text, brand text, frame_color text, lens_color text) RETURNS text
      LANGUAGE sql IMMUTABLE PARALLEL SAFE
      RETURN lower(name || ' ' || coalesce(brand, '') || ' ' || coalesce(frame_color, '') || ' ' || coalesce(lens_color, ''))
  $sql$;
  EXECUTE 'CREATE TEXT SEARCH CONFIGURATION catalog_danish (COPY = pg_catalog.danish)';
  EXECUTE 'ALTER TEXT SEARCH CONFIGURATION catalog_danish ALTER MAPPING FOR hword, hword_part, word WITH unaccent, danish_stem';

  EXECUTE $sql$
    CREATE INDEX "Product_search_trgm_idx" ON "Product"
      USING GIN (catalog_text(name, brand, "frameColor", "lensColor") gin_trgm_ops) WHERE "deletedAt" IS NULL
  $sql$;
  EXECUTE $sql$
    CREATE INDEX "Product_search_fts_idx" ON "Product"
      USING GIN (to_tsvector('catalog_danish', catalog_text(name, brand, "frameColor", "lensColor"))) WHERE "deletedAt" IS NULL
  $sql$;
  -- Listings walk these in order and stop at the page's end.
  EXECUTE $sql$
    CREATE INDEX "Product_listing_idx" ON "Product"
      (featured DESC, name COLLATE catalog_order, slug COLLATE catalog_order) WHERE "deletedAt" IS NULL AND NOT draft
  $sql$;
  EXECUTE $sql$
    CREATE INDEX "Product_category_listing_idx" ON "Product"
      ("categoryId", featured DESC, name COLLATE catalog_order, slug COLLATE catalog_order) WHERE "deletedAt" IS NULL AND NOT draft
  $sql$;
  EXECUTE $sql$
    CREATE INDEX "Product_brand_listing_idx" ON "Product" (lower(brand)) WHERE "deletedAt" IS NULL AND NOT draft
  $sql$;
  EXECUTE $sql$
    CREATE INDEX "Product_price_listing_idx" ON "Product" ("priceDkk") WHERE "deletedAt" IS NULL AND NOT draft
  $sql$;
END
$outer$;
