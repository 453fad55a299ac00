-- Outbox events per receiver: each event names who receives it and gets an enqueue number, so one receiver's events go
-- out one at a time in order while other receivers' go out side by side; and each is retried until a fixed time, so
-- events that waited behind a receiver that stays down do not pile up for ever.
ALTER TABLE "OutboxEvent" ADD COLUMN "receiver" TEXT, ADD COLUMN "seq" BIGINT, ADD COLUMN "retryUntil" TIMESTAMP(3);
UPDATE "OutboxEvent" SET "receiver" = COALESCE('endpoint:' || "endpointId", 'url:' || "url");
-- Events already queued keep the order they were made in, and a day and more of retries from their next attempt.
UPDATE "OutboxEvent" AS e SET "seq" = o.n
  FROM (SELECT id, row_number() OVER (ORDER BY "createdAt", id) AS n FROM "OutboxEvent") AS o WHERE e.id = o.id;
UPDATE "OutboxEvent" SET "retryUntil" = GREATEST("createdAt", "nextAttemptAt") + interval '30 hours';
CREATE SEQUENCE "OutboxEvent_seq_seq" OWNED BY "OutboxEvent"."seq";
SELECT setval('"OutboxEvent_seq_seq"', COALESCE((SELECT max("seq") FROM "OutboxEvent"), 0) + 1, false);
ALTER TABLE "OutboxEvent"
  ALTER COLUMN "receiver" SET NOT NULL,
  ALTER COLUMN "retryUntil" SET NOT NULL,
  ALTER COLUMN "seq" SET NOT NULL,
  ALTER COLUMN "seq" SET DEFAULT nextval('"OutboxEvent_seq_seq"');

-- CreateIndex
CREATE INDEX "OutboxEvent_status_receiver_seq_idx" ON "OutboxEvent"("status", "receiver", "seq");
