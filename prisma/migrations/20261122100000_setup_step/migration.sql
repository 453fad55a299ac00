-- One-time start-up steps (the demo seed), each recorded in the same transaction as its work, so none is ever half done.
CREATE TABLE "SetupStep" (
    "name" TEXT NOT NULL,
    "completedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "SetupStep_pkey" PRIMARY KEY ("name")
);
