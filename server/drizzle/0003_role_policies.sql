-- Row-level security, second form. Policies are per role and a plain equality, so the planner can
-- estimate and use indexes (the first form's OR with current_setting() made it seq-scan large tables):
--   console_app       every request: rows of app.tenant_id only
--   console_platform  a platform operation that crosses tenants on purpose: all rows
DO $$ BEGIN
  CREATE ROLE console_platform NOLOGIN;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;
--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO console_platform;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO console_platform;
--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO console_platform;
--> statement-breakpoint
-- Later migrations put a new tenant table under these policies with: SELECT app_enable_tenant_rls('table');
CREATE OR REPLACE FUNCTION app_enable_tenant_rls(tbl regclass) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('ALTER TABLE %s ENABLE ROW LEVEL SECURITY', tbl);
  EXECUTE format('DROP POLICY IF EXISTS tenant_isolation ON %s', tbl);
  EXECUTE format('DROP POLICY IF EXISTS platform_all ON %s', tbl);
  EXECUTE format($p$CREATE POLICY tenant_isolation ON %s TO console_app
    USING (tenant_id = current_setting('app.tenant_id', true))
    WITH CHECK (tenant_id = current_setting('app.tenant_id', true))$p$, tbl);
  EXECUTE format('CREATE POLICY platform_all ON %s TO console_platform USING (true) WITH CHECK (true)', tbl);
END $$;
--> statement-breakpoint
SELECT app_enable_tenant_rls(t::regclass) FROM unnest(ARRAY['blade_role','blade_dept','blade_user','blade_notice',
  'auth_session','auth_refresh_token','blade_log_usual','blade_log_api','blade_log_error']) AS t;
--> statement-breakpoint
-- Substring search under RLS: ILIKE is not leakproof, so PostgreSQL will not use a trigram index for it
-- ahead of the policy and scans the tenant's rows instead. This function runs the match with the
-- index, as its owner, and applies the tenant condition itself: it returns at most max_rows ids of the
-- current tenant's live rows whose column matches. The engine uses it to find small match sets fast.
CREATE OR REPLACE FUNCTION app_text_match(tbl regclass, col name, pattern text, max_rows integer)
RETURNS SETOF bigint LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, public AS $$
DECLARE tenant text := current_setting('app.tenant_id', true);
BEGIN
  IF tenant IS NULL OR tenant = '' THEN RETURN; END IF;
  RETURN QUERY EXECUTE format('SELECT id FROM %s WHERE tenant_id = $1 AND is_deleted = 0 AND %I ILIKE $2 LIMIT $3', tbl, col)
    USING tenant, pattern, max_rows;
END $$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION app_text_match(regclass, name, text, integer) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION app_text_match(regclass, name, text, integer) TO console_app;
