-- Agentic Commerce Protocol settings of an API key: the platform's signing secret and webhook URL.
ALTER TABLE "ApiKey" ADD COLUMN "acpSigningSecret" TEXT;
ALTER TABLE "ApiKey" ADD COLUMN "acpWebhookUrl" TEXT;
