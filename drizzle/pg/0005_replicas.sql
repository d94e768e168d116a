CREATE TABLE "keystore_entries" (
	"name" text PRIMARY KEY NOT NULL,
	"iv" text NOT NULL,
	"tag" text NOT NULL,
	"data" text NOT NULL,
	"updated_at" bigint DEFAULT ((extract(epoch from clock_timestamp()) * 1000)::bigint) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "replica_servers" (
	"replica" text NOT NULL,
	"server" text NOT NULL,
	"state" text NOT NULL,
	"attempt" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"pid" integer,
	"tool_count" integer DEFAULT 0 NOT NULL,
	"updated_at" bigint DEFAULT ((extract(epoch from clock_timestamp()) * 1000)::bigint) NOT NULL,
	CONSTRAINT "replica_servers_replica_server_pk" PRIMARY KEY("replica","server")
);
--> statement-breakpoint
CREATE TABLE "replicas" (
	"id" text PRIMARY KEY NOT NULL,
	"started_at" bigint NOT NULL,
	"last_heartbeat" bigint NOT NULL,
	"stopped_at" bigint,
	"version" text NOT NULL,
	"address" text,
	"leader" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- Written by hand (ADR 041): drizzle-kit cannot name the old primary key, and would add the
-- new key before the column it is made of.
ALTER TABLE "upstream_processes" ADD COLUMN "replica" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "upstream_processes" DROP CONSTRAINT "upstream_processes_pkey";--> statement-breakpoint
ALTER TABLE "upstream_processes" ADD CONSTRAINT "upstream_processes_replica_pid_pk" PRIMARY KEY("replica","pid");
