-- A per-row trigger on every insert made bulk loads (import, seed) several times slower, so the
-- services that create customers add to CustomerTally themselves, one statement per batch. The
-- delete trigger stays: deletes are one at a time, or a tenant's cascade.
DROP TRIGGER IF EXISTS "customer_tally_insert";
