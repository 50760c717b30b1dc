-- Nothing changes on SQLite in this step: its INTEGER is 64-bit already. PostgreSQL's twin makes the
-- money columns bigint (docs/decisions/0031-copy-sqlite-to-postgresql.md).
SELECT 1;
