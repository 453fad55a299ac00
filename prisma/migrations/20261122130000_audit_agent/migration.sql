-- The AI agent (MCP client name and version, or assistant) behind an audited change, when one acted.
ALTER TABLE "AuditEntry" ADD COLUMN "agent" TEXT;
