-- The running turn's hold on a chat, shared by every process: one turn per chat at a time; a crashed turn's hold lapses.
ALTER TABLE "Chat" ADD COLUMN "turnId" TEXT;
ALTER TABLE "Chat" ADD COLUMN "turnUntil" TIMESTAMP(3);
