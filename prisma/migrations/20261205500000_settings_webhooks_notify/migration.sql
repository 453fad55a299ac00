-- Any change of a Setting row or of a webhook endpoint, by any writer (a tool, an import, psql), tells every server
-- process to forget what it keeps of them (src/tools/shared/setting-rows.ts, src/tools/webhooks/subscribed.ts).
CREATE FUNCTION "notify_settings"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('shop_settings', '');
  RETURN NULL;
END
$$;

CREATE TRIGGER "Setting_notify" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "Setting"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_settings"();

CREATE FUNCTION "notify_webhook_endpoints"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('shop_webhook_endpoints', '');
  RETURN NULL;
END
$$;

CREATE TRIGGER "WebhookEndpoint_notify" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "WebhookEndpoint"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_webhook_endpoints"();
