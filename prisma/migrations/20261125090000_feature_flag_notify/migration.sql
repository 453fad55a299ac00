-- Any change of a feature flag, by any writer (a tool, a revert, the seed, psql), tells every server process to re-read
-- the flags it keeps in memory (src/tools/settings/flags.ts listens on this channel).
CREATE FUNCTION "notify_feature_flags"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('shop_feature_flags', '');
  RETURN NULL;
END
$$;

CREATE TRIGGER "FeatureFlag_notify" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "FeatureFlag"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_feature_flags"();
