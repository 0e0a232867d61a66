-- The usual, API and error logs become tables partitioned by month of create_time (docs/decisions.md,
-- "Time-partitioned logs"). Hand-written: drizzle's schema cannot say PARTITION BY; core/db/schema.ts declares
-- what this leaves (the primary key (id, create_time): a partitioned table's keys include its partition key).
-- Each table is rebuilt in place, inside the migration's transaction, on PostgreSQL and PGlite alike: its rows are
-- copied into the partitioned table and the old table dropped.
--
-- Partitions are UTC months named <table>_pYYYY_MM (pg_partman's names for a monthly set): one for each month
-- holding rows, and from the previous month to three ahead (monthsToHave in core/db/partitions/months.ts); rows
-- outside them go to <table>_default. The server creates the next months and drops those past the retention
-- (core/db/partitions). Row-level security is put back by core/db/tenantSecurity.ts, run after the migrations.
CREATE FUNCTION app_partition_by_month(tbl text, key text, months_ahead integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  parent regclass := tbl::regclass;
  old_name text := tbl || '_unpartitioned';
  index_defs text[];
  stmt text;
  cols text;
  this_month timestamp := date_trunc('month', now() AT TIME ZONE 'UTC');
  m timestamp;
BEGIN
  -- the indexes (the hand-written BRIN ones too) are made again on the partitioned table, under their own names
  SELECT coalesce(array_agg(pg_get_indexdef(i.indexrelid) ORDER BY i.indexrelid), '{}') INTO index_defs
    FROM pg_index i WHERE i.indrelid = parent AND NOT i.indisprimary;
  FOR stmt IN SELECT format('DROP INDEX %s', i.indexrelid::regclass) FROM pg_index i WHERE i.indrelid = parent AND NOT i.indisprimary LOOP
    EXECUTE stmt;
  END LOOP;
  FOR stmt IN SELECT format('ALTER TABLE %I DROP CONSTRAINT %I', tbl, conname) FROM pg_constraint WHERE conrelid = parent AND contype = 'p' LOOP
    EXECUTE stmt;
  END LOOP;
  EXECUTE format('ALTER TABLE %I RENAME TO %I', tbl, old_name);

  EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS INCLUDING GENERATED INCLUDING CONSTRAINTS INCLUDING STORAGE INCLUDING COMMENTS) PARTITION BY RANGE (%I)',
    tbl, old_name, key);
  EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I PRIMARY KEY (id, %I)', tbl, tbl || '_pkey', key);

  FOR m IN EXECUTE format(
    'SELECT DISTINCT date_trunc(''month'', %I AT TIME ZONE ''UTC'') FROM %I UNION SELECT generate_series($1 - interval ''1 month'', $1 + make_interval(months => $2), interval ''1 month'') ORDER BY 1',
    key, old_name) USING this_month, months_ahead
  LOOP
    EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)',
      tbl || '_p' || to_char(m, 'YYYY_MM'), tbl, m AT TIME ZONE 'UTC', (m + interval '1 month') AT TIME ZONE 'UTC');
  END LOOP;
  EXECUTE format('CREATE TABLE %I PARTITION OF %I DEFAULT', tbl || '_default', tbl);

  -- the generated columns (search grams) are computed again by the insert
  SELECT string_agg(quote_ident(attname), ', ' ORDER BY attnum) INTO cols
    FROM pg_attribute WHERE attrelid = old_name::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = '';
  EXECUTE format('INSERT INTO %I (%s) SELECT %s FROM %I', tbl, cols, cols, old_name);
  EXECUTE format('DROP TABLE %I', old_name);

  FOREACH stmt IN ARRAY index_defs LOOP
    EXECUTE stmt;
  END LOOP;
END $$;
--> statement-breakpoint
SELECT app_partition_by_month(t, 'create_time', 3) FROM unnest(ARRAY['blade_log_usual', 'blade_log_api', 'blade_log_error']) AS t;
--> statement-breakpoint
DROP FUNCTION app_partition_by_month(text, text, integer);
