-- Word postings in listing order (issue 38): a word many products share but that clusters in the listing (a brand:
-- names begin with it) cannot be found by walking the listing from its start, and the trigram index gives its hits in
-- no order, so a search had to read and sort every hit (85,000 rows for "ray-ban" at a million products).
-- "CatalogPosting" holds one row per product and word of its search text (whitespace-separated; words with a letter),
-- ordered by ("word", "listingRank"): the products having a word are read in listing order from where they begin, and
-- a search stops at its page's end. "CatalogWord" is the catalogue's vocabulary (trigram index, and each word's Danish
-- vector), where a search word is looked up as a part of whole words, or, when no product has every word, as a close
-- spelling or the same Danish stem of whole words (so no query compares a search word with every product's text). The trigram walk stays for words with no letter or that are a part of very many
-- words. Kept by the product trigger when the text or the rank changes (a sale changes neither); a word no product has
-- any more may stay in the vocabulary (it has no postings). Only where the catalogue-search objects exist.
DO $outer$
BEGIN
  IF to_regproc('catalog_listing_fields') IS NULL THEN
    RETURN;
  END IF;

  CREATE TABLE "CatalogWord" ("word" text PRIMARY KEY, "vector" tsvector NOT NULL);
  CREATE TABLE "CatalogPosting" ("word" text NOT NULL, "listingRank" numeric NOT NULL, "productId" text NOT NULL);

  EXECUTE $sql$
    CREATE FUNCTION catalog_words(search_text text) RETURNS SETOF text LANGUAGE sql IMMUTABLE PARALLEL SAFE
      AS 'SELECT DISTINCT w FROM regexp_split_to_table(search_text, ''[[:space:]]+'') w WHERE w ~ ''[[:alpha:]]'''
  $sql$;

  INSERT INTO "CatalogPosting" ("word", "listingRank", "productId")
    SELECT w, p."listingRank", p.id FROM "Product" p, catalog_words(p."searchText") w;
  INSERT INTO "CatalogWord" ("word", "vector")
    SELECT w, to_tsvector('catalog_danish', w) FROM (SELECT DISTINCT "word" AS w FROM "CatalogPosting") d;

  CREATE INDEX "CatalogPosting_word_rank_idx" ON "CatalogPosting" ("word", "listingRank", "productId");
  CREATE INDEX "CatalogPosting_product_idx" ON "CatalogPosting" ("productId");
  CREATE INDEX "CatalogWord_trgm_idx" ON "CatalogWord" USING GIN ("word" gin_trgm_ops);
  CREATE INDEX "CatalogWord_fts_idx" ON "CatalogWord" USING GIN ("vector");

  -- After the row is written (its rank and text are final), its postings follow it.
  EXECUTE $sql$
    CREATE FUNCTION catalog_postings() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      IF TG_OP = 'DELETE' THEN
        DELETE FROM "CatalogPosting" WHERE "productId" = OLD.id;
        RETURN OLD;
      END IF;
      IF TG_OP = 'UPDATE' THEN
        IF NEW."searchText" IS NOT DISTINCT FROM OLD."searchText" AND NEW."listingRank" IS NOT DISTINCT FROM OLD."listingRank" THEN
          RETURN NEW;
        END IF;
        DELETE FROM "CatalogPosting" WHERE "productId" = OLD.id;
      END IF;
      INSERT INTO "CatalogPosting" ("word", "listingRank", "productId")
        SELECT w, NEW."listingRank", NEW.id FROM catalog_words(NEW."searchText") w;
      INSERT INTO "CatalogWord" ("word", "vector")
        SELECT w, to_tsvector('catalog_danish', w) FROM catalog_words(NEW."searchText") w
         WHERE NOT EXISTS (SELECT 1 FROM "CatalogWord" c WHERE c.word = w)
        ON CONFLICT DO NOTHING;
      RETURN NEW;
    END
    $fn$
  $sql$;
  EXECUTE $sql$
    CREATE TRIGGER "Product_postings" AFTER INSERT OR DELETE OR UPDATE OF name, slug, featured, brand, "frameColor", "lensColor"
      ON "Product" FOR EACH ROW EXECUTE FUNCTION catalog_postings()
  $sql$;
  -- The planner's estimates for the new tables (a search plans its posting walk by them).
  ANALYZE "CatalogPosting";
  ANALYZE "CatalogWord";
END
$outer$;
