-- Substring search of 1–2 characters through an index (docs/decisions.md, "Short search terms").
-- A trigram index cannot serve a term shorter than three characters, so such a search read every row of
-- the tenant. Each searchable column gets <column>_grams: the distinct lower-cased characters and pairs of
-- characters of its text, with a GIN index (built-in array_ops: no extension, so PGlite has it too).
-- Every row whose text ILIKE-matches '%ab%' has 'ab' among its grams, and the other way round.

-- The grams of a text: its characters and pairs of adjacent characters, lower-cased as ILIKE lower-cases
-- (lower() of the whole text, in the database's collation). Duplicates are kept (the GIN index stores each
-- key once per row). Written without set-returning functions, so it is inlined and cheap (~30 µs for a
-- 50-character title; an array_agg over generate_series took 450 µs): every character doubled, the first
-- dropped, then cut into pairs: 'abc' -> 'aabbcc' -> 'abbcc' -> ab|bc|c. U+FFFF (a noncharacter) marks
-- the cuts; a text that holds one takes the slow, general way.
CREATE OR REPLACE FUNCTION app_grams_general(t text) RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(g), '{}')
  FROM (SELECT string_to_array(lower(t), NULL) AS c) s,
  LATERAL (SELECT unnest(s.c) UNION ALL SELECT s.c[i] || s.c[i + 1] FROM generate_series(1, cardinality(s.c) - 1) i) x(g)
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION app_grams(t text) RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT CASE WHEN strpos(t, chr(65535)) = 0
    THEN string_to_array(lower(t), NULL)
      || string_to_array(regexp_replace(substr(regexp_replace(lower(t), '(.)', '\1\1', 'g'), 2), '(..)', '\1' || chr(65535), 'g'), chr(65535))
    ELSE app_grams_general(t) END
$$;
--> statement-breakpoint
-- The runs of literal characters of an ILIKE pattern (escape character '\'), lower-cased as ILIKE does:
-- '%a\%b_c%' has the runs 'a%b' and 'c'. A text matching the pattern contains each run.
CREATE OR REPLACE FUNCTION app_like_runs(pattern text) RETURNS text[]
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  p text[] := string_to_array(lower(pattern), NULL);
  n integer := coalesce(cardinality(p), 0);
  runs text[] := '{}';
  run text := '';
  i integer := 1;
BEGIN
  WHILE i <= n LOOP
    IF p[i] = '\' AND i < n THEN
      run := run || p[i + 1];
      i := i + 2;
      CONTINUE;
    END IF;
    IF p[i] IN ('%', '_') THEN
      IF run <> '' THEN runs := runs || run; END IF;
      run := '';
    ELSE
      run := run || p[i];
    END IF;
    i := i + 1;
  END LOOP;
  IF run <> '' THEN runs := runs || run; END IF;
  RETURN runs;
END $$;
--> statement-breakpoint
-- The grams every text matching an ILIKE pattern has: each run of one character, and the pairs of each
-- longer run. For a run of 1–2 characters "contains these grams" is exactly "contains the run".
CREATE OR REPLACE FUNCTION app_like_grams(pattern text) RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT g), '{}')
  FROM unnest(app_like_runs(pattern)) r,
  LATERAL (SELECT r WHERE char_length(r) = 1 UNION ALL SELECT substr(r, i, 2) FROM generate_series(1, char_length(r) - 1) i) x(g)
$$;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION app_grams_general(text), app_grams(text), app_like_runs(text), app_like_grams(text) TO PUBLIC;
--> statement-breakpoint
-- Whether a column has its grams column (<column>_grams).
CREATE OR REPLACE FUNCTION app_has_grams(tbl regclass, col name) RETURNS boolean
LANGUAGE sql STABLE SET search_path = pg_catalog, public AS $$
  SELECT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = tbl AND attname = col || '_grams' AND attnum > 0 AND NOT attisdropped)
$$;
--> statement-breakpoint
-- Whether a column has a trigram index (pg_trgm's gin_trgm_ops) of its own.
CREATE OR REPLACE FUNCTION app_has_trigrams(tbl regclass, col name) RETURNS boolean
LANGUAGE sql STABLE SET search_path = pg_catalog, public AS $$
  SELECT EXISTS (
    SELECT 1 FROM pg_index i
    JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
    JOIN pg_opclass o ON o.oid = i.indclass[0]
    WHERE i.indrelid = tbl AND a.attname = col AND o.opcname = 'gin_trgm_ops')
$$;
--> statement-breakpoint
-- app_text_match (migration 0003) now narrows by the grams where the column has them and the pattern has
-- a run of 1–2 characters only (no trigram), or the column has no trigram index. A longer term stays with
-- the trigram index: its pairs are far more common than its trigrams ('recall': 're', 'al', 'll' are in
-- most English titles), and the planner, multiplying their frequencies, would wrongly prefer the grams.
-- ILIKE decides in every case.
CREATE OR REPLACE FUNCTION app_text_match(tbl regclass, col name, pattern text, max_rows integer)
RETURNS SETOF bigint LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, public AS $$
DECLARE
  tenant text := current_setting('app.tenant_id', true);
  runs text[] := app_like_runs(pattern);
  grams text[];
BEGIN
  IF tenant IS NULL OR tenant = '' THEN RETURN; END IF;
  IF cardinality(runs) > 0 AND app_has_grams(tbl, col)
    AND ((SELECT max(char_length(r)) FROM unnest(runs) r) <= 2 OR NOT app_has_trigrams(tbl, col)) THEN
    grams := app_like_grams(pattern);
    RETURN QUERY EXECUTE format('SELECT id FROM %s WHERE tenant_id = $1 AND is_deleted = 0 AND %I @> $4 AND %I ILIKE $2 LIMIT $3',
      tbl, col || '_grams', col) USING tenant, pattern, max_rows, grams;
  ELSE
    RETURN QUERY EXECUTE format('SELECT id FROM %s WHERE tenant_id = $1 AND is_deleted = 0 AND %I ILIKE $2 LIMIT $3', tbl, col)
      USING tenant, pattern, max_rows;
  END IF;
END $$;
--> statement-breakpoint
-- app_text_match_estimate (migration 0004): for a pattern whose runs are all 1–2 characters the grams are
-- the exact condition, and their statistics (most common elements) estimate it far better than ILIKE's.
CREATE OR REPLACE FUNCTION app_text_match_estimate(tbl regclass, col name, pattern text)
RETURNS bigint LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, public AS $$
DECLARE
  tenant text := current_setting('app.tenant_id', true);
  runs text[] := app_like_runs(pattern);
  plan json;
BEGIN
  IF tenant IS NULL OR tenant = '' THEN RETURN 0; END IF;
  IF cardinality(runs) > 0 AND app_has_grams(tbl, col) AND (SELECT max(char_length(r)) FROM unnest(runs) r) <= 2 THEN
    EXECUTE format('EXPLAIN (FORMAT JSON) SELECT 1 FROM %s WHERE tenant_id = %L AND is_deleted = 0 AND %I @> %L',
      tbl, tenant, col || '_grams', app_like_grams(pattern)) INTO plan;
  ELSE
    EXECUTE format('EXPLAIN (FORMAT JSON) SELECT 1 FROM %s WHERE tenant_id = %L AND is_deleted = 0 AND %I ILIKE %L', tbl, tenant, col, pattern)
      INTO plan;
  END IF;
  RETURN (plan -> 0 -> 'Plan' ->> 'Plan Rows')::bigint;
END $$;
--> statement-breakpoint
ALTER TABLE "blade_attach" ADD COLUMN "original_name_grams" text[] GENERATED ALWAYS AS (app_grams("original_name")) STORED;--> statement-breakpoint
ALTER TABLE "blade_client" ADD COLUMN "client_id_grams" text[] GENERATED ALWAYS AS (app_grams("client_id")) STORED;--> statement-breakpoint
ALTER TABLE "blade_client" ADD COLUMN "authorized_grant_types_grams" text[] GENERATED ALWAYS AS (app_grams("authorized_grant_types")) STORED;--> statement-breakpoint
ALTER TABLE "blade_dept" ADD COLUMN "dept_name_grams" text[] GENERATED ALWAYS AS (app_grams("dept_name")) STORED;--> statement-breakpoint
ALTER TABLE "blade_dept" ADD COLUMN "full_name_grams" text[] GENERATED ALWAYS AS (app_grams("full_name")) STORED;--> statement-breakpoint
ALTER TABLE "blade_dict" ADD COLUMN "code_grams" text[] GENERATED ALWAYS AS (app_grams("code")) STORED;--> statement-breakpoint
ALTER TABLE "blade_dict" ADD COLUMN "dict_value_grams" text[] GENERATED ALWAYS AS (app_grams("dict_value")) STORED;--> statement-breakpoint
ALTER TABLE "blade_dict" ADD COLUMN "dict_key_grams" text[] GENERATED ALWAYS AS (app_grams("dict_key")) STORED;--> statement-breakpoint
ALTER TABLE "blade_log_api" ADD COLUMN "request_uri_grams" text[] GENERATED ALWAYS AS (app_grams("request_uri")) STORED;--> statement-breakpoint
ALTER TABLE "blade_log_api" ADD COLUMN "title_grams" text[] GENERATED ALWAYS AS (app_grams("title")) STORED;--> statement-breakpoint
ALTER TABLE "blade_log_error" ADD COLUMN "request_uri_grams" text[] GENERATED ALWAYS AS (app_grams("request_uri")) STORED;--> statement-breakpoint
ALTER TABLE "blade_log_error" ADD COLUMN "exception_name_grams" text[] GENERATED ALWAYS AS (app_grams("exception_name")) STORED;--> statement-breakpoint
ALTER TABLE "blade_log_usual" ADD COLUMN "request_uri_grams" text[] GENERATED ALWAYS AS (app_grams("request_uri")) STORED;--> statement-breakpoint
ALTER TABLE "blade_menu" ADD COLUMN "name_grams" text[] GENERATED ALWAYS AS (app_grams("name")) STORED;--> statement-breakpoint
ALTER TABLE "blade_menu" ADD COLUMN "code_grams" text[] GENERATED ALWAYS AS (app_grams("code")) STORED;--> statement-breakpoint
ALTER TABLE "blade_menu" ADD COLUMN "path_grams" text[] GENERATED ALWAYS AS (app_grams("path")) STORED;--> statement-breakpoint
ALTER TABLE "blade_notice" ADD COLUMN "title_grams" text[] GENERATED ALWAYS AS (app_grams("title")) STORED;--> statement-breakpoint
ALTER TABLE "blade_param" ADD COLUMN "param_name_grams" text[] GENERATED ALWAYS AS (app_grams("param_name")) STORED;--> statement-breakpoint
ALTER TABLE "blade_param" ADD COLUMN "param_key_grams" text[] GENERATED ALWAYS AS (app_grams("param_key")) STORED;--> statement-breakpoint
ALTER TABLE "blade_role" ADD COLUMN "role_name_grams" text[] GENERATED ALWAYS AS (app_grams("role_name")) STORED;--> statement-breakpoint
ALTER TABLE "blade_role" ADD COLUMN "role_alias_grams" text[] GENERATED ALWAYS AS (app_grams("role_alias")) STORED;--> statement-breakpoint
ALTER TABLE "blade_scope_api" ADD COLUMN "scope_name_grams" text[] GENERATED ALWAYS AS (app_grams("scope_name")) STORED;--> statement-breakpoint
ALTER TABLE "blade_scope_api" ADD COLUMN "resource_code_grams" text[] GENERATED ALWAYS AS (app_grams("resource_code")) STORED;--> statement-breakpoint
ALTER TABLE "blade_scope_api" ADD COLUMN "scope_path_grams" text[] GENERATED ALWAYS AS (app_grams("scope_path")) STORED;--> statement-breakpoint
ALTER TABLE "blade_scope_data" ADD COLUMN "scope_name_grams" text[] GENERATED ALWAYS AS (app_grams("scope_name")) STORED;--> statement-breakpoint
ALTER TABLE "blade_scope_data" ADD COLUMN "resource_code_grams" text[] GENERATED ALWAYS AS (app_grams("resource_code")) STORED;--> statement-breakpoint
ALTER TABLE "blade_tenant" ADD COLUMN "tenant_id_grams" text[] GENERATED ALWAYS AS (app_grams("tenant_id")) STORED;--> statement-breakpoint
ALTER TABLE "blade_tenant" ADD COLUMN "tenant_name_grams" text[] GENERATED ALWAYS AS (app_grams("tenant_name")) STORED;--> statement-breakpoint
ALTER TABLE "blade_tenant" ADD COLUMN "linkman_grams" text[] GENERATED ALWAYS AS (app_grams("linkman")) STORED;--> statement-breakpoint
ALTER TABLE "blade_tenant_package" ADD COLUMN "package_name_grams" text[] GENERATED ALWAYS AS (app_grams("package_name")) STORED;--> statement-breakpoint
ALTER TABLE "blade_top_menu" ADD COLUMN "name_grams" text[] GENERATED ALWAYS AS (app_grams("name")) STORED;--> statement-breakpoint
ALTER TABLE "blade_top_menu" ADD COLUMN "code_grams" text[] GENERATED ALWAYS AS (app_grams("code")) STORED;--> statement-breakpoint
ALTER TABLE "blade_user" ADD COLUMN "account_grams" text[] GENERATED ALWAYS AS (app_grams("account")) STORED;--> statement-breakpoint
ALTER TABLE "blade_user" ADD COLUMN "real_name_grams" text[] GENERATED ALWAYS AS (app_grams("real_name")) STORED;--> statement-breakpoint
ALTER TABLE "blade_user" ADD COLUMN "phone_grams" text[] GENERATED ALWAYS AS (app_grams("phone")) STORED;--> statement-breakpoint
ALTER TABLE "blade_oss" ADD COLUMN "oss_code_grams" text[] GENERATED ALWAYS AS (app_grams("oss_code")) STORED;--> statement-breakpoint
ALTER TABLE "blade_sms" ADD COLUMN "sms_code_grams" text[] GENERATED ALWAYS AS (app_grams("sms_code")) STORED;--> statement-breakpoint
ALTER TABLE "blade_sms" ADD COLUMN "template_id_grams" text[] GENERATED ALWAYS AS (app_grams("template_id")) STORED;--> statement-breakpoint
ALTER TABLE "blade_dict_biz" ADD COLUMN "code_grams" text[] GENERATED ALWAYS AS (app_grams("code")) STORED;--> statement-breakpoint
ALTER TABLE "blade_dict_biz" ADD COLUMN "dict_value_grams" text[] GENERATED ALWAYS AS (app_grams("dict_value")) STORED;--> statement-breakpoint
ALTER TABLE "blade_dict_biz" ADD COLUMN "dict_key_grams" text[] GENERATED ALWAYS AS (app_grams("dict_key")) STORED;--> statement-breakpoint
ALTER TABLE "blade_post" ADD COLUMN "post_code_grams" text[] GENERATED ALWAYS AS (app_grams("post_code")) STORED;--> statement-breakpoint
ALTER TABLE "blade_post" ADD COLUMN "post_name_grams" text[] GENERATED ALWAYS AS (app_grams("post_name")) STORED;--> statement-breakpoint
ALTER TABLE "blade_region" ADD COLUMN "code_grams" text[] GENERATED ALWAYS AS (app_grams("code")) STORED;--> statement-breakpoint
ALTER TABLE "blade_region" ADD COLUMN "name_grams" text[] GENERATED ALWAYS AS (app_grams("name")) STORED;--> statement-breakpoint
CREATE INDEX "ix_attach_original_name_grams" ON "blade_attach" USING gin ("original_name_grams");--> statement-breakpoint
CREATE INDEX "ix_client_client_id_grams" ON "blade_client" USING gin ("client_id_grams");--> statement-breakpoint
CREATE INDEX "ix_client_authorized_grant_types_grams" ON "blade_client" USING gin ("authorized_grant_types_grams");--> statement-breakpoint
CREATE INDEX "ix_dept_dept_name_grams" ON "blade_dept" USING gin ("dept_name_grams");--> statement-breakpoint
CREATE INDEX "ix_dept_full_name_grams" ON "blade_dept" USING gin ("full_name_grams");--> statement-breakpoint
CREATE INDEX "ix_dict_code_grams" ON "blade_dict" USING gin ("code_grams");--> statement-breakpoint
CREATE INDEX "ix_dict_dict_value_grams" ON "blade_dict" USING gin ("dict_value_grams");--> statement-breakpoint
CREATE INDEX "ix_dict_dict_key_grams" ON "blade_dict" USING gin ("dict_key_grams");--> statement-breakpoint
CREATE INDEX "ix_log_api_request_uri_grams" ON "blade_log_api" USING gin ("request_uri_grams");--> statement-breakpoint
CREATE INDEX "ix_log_api_title_grams" ON "blade_log_api" USING gin ("title_grams");--> statement-breakpoint
CREATE INDEX "ix_log_error_request_uri_grams" ON "blade_log_error" USING gin ("request_uri_grams");--> statement-breakpoint
CREATE INDEX "ix_log_error_exception_name_grams" ON "blade_log_error" USING gin ("exception_name_grams");--> statement-breakpoint
CREATE INDEX "ix_log_usual_request_uri_grams" ON "blade_log_usual" USING gin ("request_uri_grams");--> statement-breakpoint
CREATE INDEX "ix_menu_name_grams" ON "blade_menu" USING gin ("name_grams");--> statement-breakpoint
CREATE INDEX "ix_menu_code_grams" ON "blade_menu" USING gin ("code_grams");--> statement-breakpoint
CREATE INDEX "ix_menu_path_grams" ON "blade_menu" USING gin ("path_grams");--> statement-breakpoint
CREATE INDEX "ix_notice_title_grams" ON "blade_notice" USING gin ("title_grams");--> statement-breakpoint
CREATE INDEX "ix_param_name_grams" ON "blade_param" USING gin ("param_name_grams");--> statement-breakpoint
CREATE INDEX "ix_param_key_grams" ON "blade_param" USING gin ("param_key_grams");--> statement-breakpoint
CREATE INDEX "ix_role_role_name_grams" ON "blade_role" USING gin ("role_name_grams");--> statement-breakpoint
CREATE INDEX "ix_role_role_alias_grams" ON "blade_role" USING gin ("role_alias_grams");--> statement-breakpoint
CREATE INDEX "ix_scope_api_scope_name_grams" ON "blade_scope_api" USING gin ("scope_name_grams");--> statement-breakpoint
CREATE INDEX "ix_scope_api_resource_code_grams" ON "blade_scope_api" USING gin ("resource_code_grams");--> statement-breakpoint
CREATE INDEX "ix_scope_api_scope_path_grams" ON "blade_scope_api" USING gin ("scope_path_grams");--> statement-breakpoint
CREATE INDEX "ix_scope_data_scope_name_grams" ON "blade_scope_data" USING gin ("scope_name_grams");--> statement-breakpoint
CREATE INDEX "ix_scope_data_resource_code_grams" ON "blade_scope_data" USING gin ("resource_code_grams");--> statement-breakpoint
CREATE INDEX "ix_tenant_tenant_id_grams" ON "blade_tenant" USING gin ("tenant_id_grams");--> statement-breakpoint
CREATE INDEX "ix_tenant_tenant_name_grams" ON "blade_tenant" USING gin ("tenant_name_grams");--> statement-breakpoint
CREATE INDEX "ix_tenant_linkman_grams" ON "blade_tenant" USING gin ("linkman_grams");--> statement-breakpoint
CREATE INDEX "ix_tenant_package_package_name_grams" ON "blade_tenant_package" USING gin ("package_name_grams");--> statement-breakpoint
CREATE INDEX "ix_top_menu_name_grams" ON "blade_top_menu" USING gin ("name_grams");--> statement-breakpoint
CREATE INDEX "ix_top_menu_code_grams" ON "blade_top_menu" USING gin ("code_grams");--> statement-breakpoint
CREATE INDEX "ix_user_account_grams" ON "blade_user" USING gin ("account_grams");--> statement-breakpoint
CREATE INDEX "ix_user_real_name_grams" ON "blade_user" USING gin ("real_name_grams");--> statement-breakpoint
CREATE INDEX "ix_user_phone_grams" ON "blade_user" USING gin ("phone_grams");--> statement-breakpoint
CREATE INDEX "ix_oss_oss_code_grams" ON "blade_oss" USING gin ("oss_code_grams");--> statement-breakpoint
CREATE INDEX "ix_sms_sms_code_grams" ON "blade_sms" USING gin ("sms_code_grams");--> statement-breakpoint
CREATE INDEX "ix_sms_template_id_grams" ON "blade_sms" USING gin ("template_id_grams");--> statement-breakpoint
CREATE INDEX "ix_dict_biz_code_grams" ON "blade_dict_biz" USING gin ("code_grams");--> statement-breakpoint
CREATE INDEX "ix_dict_biz_dict_value_grams" ON "blade_dict_biz" USING gin ("dict_value_grams");--> statement-breakpoint
CREATE INDEX "ix_dict_biz_dict_key_grams" ON "blade_dict_biz" USING gin ("dict_key_grams");--> statement-breakpoint
CREATE INDEX "ix_post_post_code_grams" ON "blade_post" USING gin ("post_code_grams");--> statement-breakpoint
CREATE INDEX "ix_post_post_name_grams" ON "blade_post" USING gin ("post_name_grams");--> statement-breakpoint
CREATE INDEX "ix_region_code_grams" ON "blade_region" USING gin ("code_grams");--> statement-breakpoint
CREATE INDEX "ix_region_name_grams" ON "blade_region" USING gin ("name_grams");