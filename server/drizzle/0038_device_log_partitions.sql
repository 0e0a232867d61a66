-- The OTA, face and app logs become tables partitioned by month, as the API logs did in 0036 (docs/decisions.md,
-- "Time-partitioned logs"): ymy_ota_log by report_time, ymy_face_log by event_time, ymy_app_log by upload_time (the
-- times their lists sort and filter by; a device's signed time is within five minutes of the server's). Hand-written:
-- the same rebuild in place as 0036, whose function is made again here and dropped after.
--
-- A resent OTA report or face event was kept once by a unique index on (device_sn, client_token); a partitioned
-- table's unique indexes must include its partition key, which a resend changes. The tokens move to
-- ymy_device_report_token, whose primary key keeps them once (device/reportTokens.ts).
CREATE TABLE "ymy_device_report_token" (
	"kind" varchar(8) NOT NULL,
	"device_sn" varchar(32) NOT NULL,
	"client_token" varchar(64) NOT NULL,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ymy_device_report_token_pkey" PRIMARY KEY("kind","device_sn","client_token")
);
--> statement-breakpoint
CREATE INDEX "ix_device_report_token_time" ON "ymy_device_report_token" USING btree ("create_time");
--> statement-breakpoint
INSERT INTO "ymy_device_report_token" ("kind", "device_sn", "client_token", "create_time")
  SELECT 'ota', device_sn, client_token, max(create_time) FROM ymy_ota_log WHERE client_token IS NOT NULL GROUP BY device_sn, client_token;
--> statement-breakpoint
INSERT INTO "ymy_device_report_token" ("kind", "device_sn", "client_token", "create_time")
  SELECT 'face', device_sn, client_token, max(create_time) FROM ymy_face_log WHERE client_token IS NOT NULL GROUP BY device_sn, client_token;
--> statement-breakpoint
DROP INDEX "uq_face_log_token";
--> statement-breakpoint
DROP INDEX "uq_ota_log_token";
--> statement-breakpoint
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
SELECT app_partition_by_month('ymy_ota_log', 'report_time', 3);
--> statement-breakpoint
SELECT app_partition_by_month('ymy_face_log', 'event_time', 3);
--> statement-breakpoint
SELECT app_partition_by_month('ymy_app_log', 'upload_time', 3);
--> statement-breakpoint
DROP FUNCTION app_partition_by_month(text, text, integer);
