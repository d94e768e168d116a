CREATE TABLE "config_versions" (
	"version" integer PRIMARY KEY NOT NULL,
	"document" text NOT NULL,
	"written_by" text NOT NULL,
	"written_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fleet_messages" (
	"id" text PRIMARY KEY NOT NULL,
	"topic" text NOT NULL,
	"payload" text NOT NULL,
	"created_at" bigint DEFAULT ((extract(epoch from clock_timestamp()) * 1000)::bigint) NOT NULL
);
--> statement-breakpoint
CREATE INDEX "idx_fleet_messages_created" ON "fleet_messages" USING btree ("created_at");