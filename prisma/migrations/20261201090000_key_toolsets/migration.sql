-- API keys limited to toolsets (the catalogue's areas, e.g. orders, returns): tools/list shows only those and calls
-- outside them are refused. Empty: every toolset, as every key had before.
ALTER TABLE "ApiKey" ADD COLUMN "toolsets" TEXT[] DEFAULT ARRAY[]::TEXT[];
