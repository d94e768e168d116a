CREATE TABLE "fleet_sessions" (
	"session_id" text PRIMARY KEY NOT NULL,
	"owner" text NOT NULL,
	"holder" text NOT NULL,
	"seen_at" bigint DEFAULT ((extract(epoch from clock_timestamp()) * 1000)::bigint) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"key" varchar(255) PRIMARY KEY NOT NULL,
	"points" integer DEFAULT 0 NOT NULL,
	"expire" bigint
);
--> statement-breakpoint
CREATE INDEX "idx_fleet_sessions_owner" ON "fleet_sessions" USING btree ("owner");--> statement-breakpoint
CREATE INDEX "idx_fleet_sessions_holder" ON "fleet_sessions" USING btree ("holder");