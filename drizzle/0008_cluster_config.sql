CREATE TABLE `config_versions` (
	`version` integer PRIMARY KEY NOT NULL,
	`document` text NOT NULL,
	`written_by` text NOT NULL,
	`written_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `fleet_messages` (
	`id` text PRIMARY KEY NOT NULL,
	`topic` text NOT NULL,
	`payload` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `idx_fleet_messages_created` ON `fleet_messages` (`created_at`);