CREATE TABLE "stream_events" (
	"n" bigserial PRIMARY KEY NOT NULL,
	"session" text NOT NULL,
	"event_id" text NOT NULL,
	"data" text NOT NULL,
	"at" bigint DEFAULT ((extract(epoch from clock_timestamp()) * 1000)::bigint) NOT NULL
);
--> statement-breakpoint
CREATE INDEX "idx_stream_events_session" ON "stream_events" USING btree ("session","event_id");--> statement-breakpoint
CREATE INDEX "idx_stream_events_at" ON "stream_events" USING btree ("at");--> statement-breakpoint
-- ADR 039 §5: the GET streams' events skip the WAL (written by hand: drizzle's pg-core cannot say
-- UNLOGGED). Kept five minutes for a resumption on another replica; lost on a server crash.
ALTER TABLE "stream_events" SET UNLOGGED;