-- Custom SQL migration file, put your code below! --
-- ADR 042: the rate-limit counters skip the WAL. drizzle's pg-core cannot say UNLOGGED, so
-- this statement is written by hand (drizzle-kit generate --custom). A commit that wrote
-- only to unlogged tables does not wait for a WAL flush: a consume's p50 was 87 µs against
-- 4 ms logged (bench/fleet-limits.ts). The counters are lost on a server crash and are not
-- on standbys: a window then starts over, which a rate limit may do.
ALTER TABLE "rate_limits" SET UNLOGGED;
