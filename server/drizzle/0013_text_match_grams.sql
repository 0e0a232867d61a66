-- app_text_match asks the trigram index only for terms whose runs are single words of 3 or more letters or
-- digits. pg_trgm makes trigrams of words only: punctuation such as 】 or - and spaces are dropped, so
-- '】关于' asked the trigram index for every title holding the frequent word 关于 and ILIKE rechecked them
-- all (p95 261 ms on 1M notices). The grams keep every character: the pair 】关 alone narrows the term to
-- its few hundred rows. For a frequent plain word (智能锁) the trigram index stays the faster of the two.
-- Letters are classified and lower-cased under the database's collation, as pg_trgm and the stored grams
-- do: the function's own collation is C (its `name` argument carries it to every text it handles), under
-- which 智 is no letter and É has no lower case.
CREATE OR REPLACE FUNCTION app_text_match(tbl regclass, col name, pattern text, max_rows integer)
RETURNS SETOF bigint LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, public
  -- a probe that stops at max_rows: JIT compilation (16 ms) and parallel workers only delay its first rows
  SET jit = off SET max_parallel_workers_per_gather = 0 AS $$
DECLARE
  tenant text := current_setting('app.tenant_id', true);
  runs text[] := app_like_runs(pattern COLLATE "default");
  grams text[];
BEGIN
  IF tenant IS NULL OR tenant = '' THEN RETURN; END IF;
  IF cardinality(runs) > 0 AND app_has_grams(tbl, col)
    AND (NOT app_has_trigrams(tbl, col) OR EXISTS (SELECT 1 FROM unnest(runs) AS u(run) WHERE char_length(u.run) < 3 OR u.run COLLATE "default" !~ '^[[:alnum:]]+$')) THEN
    grams := app_like_grams(pattern COLLATE "default");
    RETURN QUERY EXECUTE format('SELECT id FROM %s WHERE tenant_id = $1 AND is_deleted = 0 AND %I @> $4 AND %I ILIKE $2 LIMIT $3',
      tbl, col || '_grams', col) USING tenant, pattern, max_rows, grams;
  ELSE
    RETURN QUERY EXECUTE format('SELECT id FROM %s WHERE tenant_id = $1 AND is_deleted = 0 AND %I ILIKE $2 LIMIT $3', tbl, col)
      USING tenant, pattern, max_rows;
  END IF;
END $$;
