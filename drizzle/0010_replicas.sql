CREATE TABLE `keystore_entries` (
	`name` text PRIMARY KEY NOT NULL,
	`iv` text NOT NULL,
	`tag` text NOT NULL,
	`data` text NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `replica_servers` (
	`replica` text NOT NULL,
	`server` text NOT NULL,
	`state` text NOT NULL,
	`attempt` integer DEFAULT 0 NOT NULL,
	`last_error` text,
	`pid` integer,
	`tool_count` integer DEFAULT 0 NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`replica`, `server`)
);
--> statement-breakpoint
CREATE TABLE `replicas` (
	`id` text PRIMARY KEY NOT NULL,
	`started_at` integer NOT NULL,
	`last_heartbeat` integer NOT NULL,
	`stopped_at` integer,
	`version` text NOT NULL,
	`address` text,
	`leader` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_upstream_processes` (
	`replica` text DEFAULT '' NOT NULL,
	`pid` integer NOT NULL,
	`start_time` text NOT NULL,
	`server_id` text NOT NULL,
	`spawned_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`replica`, `pid`)
);
--> statement-breakpoint
INSERT INTO `__new_upstream_processes`("replica", "pid", "start_time", "server_id", "spawned_at") SELECT '', "pid", "start_time", "server_id", "spawned_at" FROM `upstream_processes`;--> statement-breakpoint
DROP TABLE `upstream_processes`;--> statement-breakpoint
ALTER TABLE `__new_upstream_processes` RENAME TO `upstream_processes`;--> statement-breakpoint
PRAGMA foreign_keys=ON;