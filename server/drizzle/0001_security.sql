-- Row-level security on tenant data, as defence in depth behind the data layer's tenant filter.
-- Requests run as the role console_app (SET LOCAL ROLE), which is subject to the policies below;
-- the tenant of the request is set per transaction in app.tenant_id. Platform operations that must
-- cross tenants on purpose set app.all_tenants = 'on' for their transaction only.
DO $$ BEGIN
  CREATE ROLE console_app NOLOGIN;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;
--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO console_app;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO console_app;
--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO console_app;
--> statement-breakpoint
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['blade_role','blade_dept','blade_user','blade_notice','auth_session',
                           'auth_refresh_token','blade_log_usual','blade_log_api','blade_log_error'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('DROP POLICY IF EXISTS tenant_isolation ON %I', t);
    EXECUTE format($p$CREATE POLICY tenant_isolation ON %I
      USING (tenant_id = current_setting('app.tenant_id', true) OR current_setting('app.all_tenants', true) = 'on')
      WITH CHECK (tenant_id = current_setting('app.tenant_id', true) OR current_setting('app.all_tenants', true) = 'on')$p$, t);
  END LOOP;
END $$;
