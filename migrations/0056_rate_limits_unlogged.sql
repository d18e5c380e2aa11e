-- The rate-limit counters (src/http/rateLimit.ts) are written on every API request. Unlogged, their
-- writes produce no WAL, so a request no longer waits for a WAL flush at its counter's commit
-- (issue 34: 0.5–0.7 ms per counter with the flush, 0.15–0.25 ms without, on a loaded machine).
-- Every instance still reads and writes the same committed row at once, with the same statement
-- and bound parameters; what a crash of PostgreSQL (or a failover to a standby) loses is the
-- counts of the current windows: the table starts empty, as after a quiet minute.
ALTER TABLE "rate_limits" SET UNLOGGED;
