-- A free-text note on audit entries: why a change was made (stock adjustment reason, cancellation reason …).
ALTER TABLE "AuditEntry" ADD COLUMN "note" TEXT;
