-- The planner's estimate of how many of the current tenant's live rows match a substring, made as the
-- table owner: under row-level security the planner cannot see through the policy's current_setting()
-- and underestimates such matches by orders of magnitude. Used for the totals of very large matches.
CREATE OR REPLACE FUNCTION app_text_match_estimate(tbl regclass, col name, pattern text)
RETURNS bigint LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, public AS $$
DECLARE
  tenant text := current_setting('app.tenant_id', true);
  plan json;
BEGIN
  IF tenant IS NULL OR tenant = '' THEN RETURN 0; END IF;
  EXECUTE format('EXPLAIN (FORMAT JSON) SELECT 1 FROM %s WHERE tenant_id = %L AND is_deleted = 0 AND %I ILIKE %L', tbl, tenant, col, pattern)
    INTO plan;
  RETURN (plan -> 0 -> 'Plan' ->> 'Plan Rows')::bigint;
END $$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION app_text_match_estimate(regclass, name, text) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION app_text_match_estimate(regclass, name, text) TO console_app;
