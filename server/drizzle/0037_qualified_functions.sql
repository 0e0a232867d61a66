-- pg_restore (and pg_upgrade) run with an empty search_path: a function used by a generated column must name the
-- schema of every function it calls, or the restore of the first table with search grams fails
-- ("function app_grams_general(text) does not exist"). The bodies are those of 0012, the calls qualified.
CREATE OR REPLACE FUNCTION app_grams(t text) RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT CASE WHEN strpos(t, chr(65535)) = 0
    THEN string_to_array(lower(t), NULL)
      || string_to_array(regexp_replace(substr(regexp_replace(lower(t), '(.)', '\1\1', 'g'), 2), '(..)', '\1' || chr(65535), 'g'), chr(65535))
    ELSE public.app_grams_general(t) END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION app_like_grams(pattern text) RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT g), '{}')
  FROM unnest(public.app_like_runs(pattern)) r,
  LATERAL (SELECT r WHERE char_length(r) = 1 UNION ALL SELECT substr(r, i, 2) FROM generate_series(1, char_length(r) - 1) i) x(g)
$$;
