-- Human order numbers (#1001 …): existing orders numbered by (createdAt, id) from 1001, then every new order takes the
-- next value of the "order_number" counter row in its own transaction (gap-free: a rollback gives the number back).
CREATE TABLE "Sequence" (
    "name" TEXT NOT NULL,
    "value" INTEGER NOT NULL,
    CONSTRAINT "Sequence_pkey" PRIMARY KEY ("name")
);

ALTER TABLE "Order" ADD COLUMN "number" INTEGER;
UPDATE "Order" SET "number" = ranked."number"
FROM (SELECT "id", 1000 + ROW_NUMBER() OVER (ORDER BY "createdAt", "id") AS "number" FROM "Order") AS ranked
WHERE "Order"."id" = ranked."id";
INSERT INTO "Sequence" ("name", "value") SELECT 'order_number', COALESCE(MAX("number"), 1000) FROM "Order";

-- One UPDATE … RETURNING: the row lock makes concurrent inserts (any process) wait for the holder's commit or rollback.
CREATE FUNCTION "next_order_number"() RETURNS INTEGER LANGUAGE sql VOLATILE AS $$
  UPDATE "Sequence" SET "value" = "value" + 1 WHERE "name" = 'order_number' RETURNING "value"
$$;
ALTER TABLE "Order" ALTER COLUMN "number" SET DEFAULT "next_order_number"();
ALTER TABLE "Order" ALTER COLUMN "number" SET NOT NULL;
CREATE UNIQUE INDEX "Order_number_key" ON "Order"("number");
