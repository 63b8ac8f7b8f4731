-- palimpsest_expect(ok, detail): true when ok, else raises serialization_failure (40001) with `detail`.
-- An optimistic command statement (one round trip, no transaction block) calls it on the row it locks,
-- so a write decided against a stale picture of the target aborts as a whole before anything commits;
-- the caller then takes the locked path. 40001 is PostgreSQL's own "concurrent update, try again".
CREATE FUNCTION palimpsest_expect(ok boolean, detail text) RETURNS boolean
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  IF ok IS NOT TRUE THEN
    RAISE EXCEPTION USING ERRCODE = 'serialization_failure', MESSAGE = detail;
  END IF;
  RETURN true;
END
$$;
