-- The release before the expiry sweep (20261126100000_expiry_sweep) called create_payment with a
-- last argument, the payload of an expire-payment job, and insert_expiry_job(text) to enqueue it.
-- Those were kept while that release could still run beside the sweep's in a rolling upgrade; the
-- release after (this one) drops them: no process that may run beside it calls either.
-- The old create_payment is found by its argument name, whatever its other arguments were.
DO $$
DECLARE
  f regprocedure;
BEGIN
  FOR f IN
    SELECT p.oid::regprocedure FROM pg_proc p
    WHERE p.proname = 'create_payment' AND p.pronamespace = current_schema()::regnamespace AND 'job_payload' = ANY (p.proargnames)
  LOOP
    EXECUTE format('DROP FUNCTION %s', f);
  END LOOP;
END
$$;
DROP FUNCTION IF EXISTS insert_expiry_job(text);
