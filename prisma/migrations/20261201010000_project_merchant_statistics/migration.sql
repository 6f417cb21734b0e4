-- A project belongs to one merchant, so a row's project_id decides its merchant_id. The planner
-- does not know that: for "merchant M and project P and a date range" (a project's export, its
-- stats) it multiplies the two selectivities, expects about one row, and picks a BitmapAnd of the
-- merchant's and the project's indexes, which on a year of data walks all of a busy merchant's
-- month (13,424 index entries for 300 rows at scale 1, 10 ms against 1 ms; docs/BENCHMARKS.md
-- "Scale 1"). Functional-dependency statistics tell it, and the project's (project_id, created_at)
-- index is walked instead. Built by ANALYZE (autovacuum's, or the one below: a sample of the table,
-- seconds at 10 million rows).
CREATE STATISTICS IF NOT EXISTS payments_project_merchant (dependencies) ON project_id, merchant_id FROM payments;
CREATE STATISTICS IF NOT EXISTS bank_messages_project_merchant (dependencies) ON project_id, merchant_id FROM bank_messages;
ANALYZE payments;
ANALYZE bank_messages;
