CREATE TABLE `bot_chat_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`session_id` text NOT NULL,
	`role` text NOT NULL,
	`content` text DEFAULT '' NOT NULL,
	`tool_calls` text,
	`tool_call_id` text,
	`tool_name` text,
	`is_error` integer DEFAULT false NOT NULL,
	`data` text,
	`prompt_tokens` integer,
	`completion_tokens` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`session_id`) REFERENCES `bot_chat_sessions`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "bot_chat_messages_role" CHECK("role" in ('user', 'assistant', 'tool', 'error'))
);
--> statement-breakpoint
CREATE INDEX `idx_bot_chat_messages_session` ON `bot_chat_messages` (`session_id`,`id`);--> statement-breakpoint
CREATE TABLE `bot_chat_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`bot_id` text NOT NULL,
	`title` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`bot_id`) REFERENCES `bots`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `idx_bot_chat_sessions_bot` ON `bot_chat_sessions` (`bot_id`);--> statement-breakpoint
CREATE TABLE `bot_sampling_usage` (
	`id` text PRIMARY KEY NOT NULL,
	`bot_id` text NOT NULL,
	`server_name` text,
	`prompt_tokens` integer NOT NULL,
	`completion_tokens` integer NOT NULL,
	`tokens` integer NOT NULL,
	`estimated` integer DEFAULT false NOT NULL,
	`at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`bot_id`) REFERENCES `bots`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `idx_bot_sampling_usage_bot` ON `bot_sampling_usage` (`bot_id`);--> statement-breakpoint
CREATE TABLE `bot_skills` (
	`id` text PRIMARY KEY NOT NULL,
	`bot_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`template` text NOT NULL,
	`arguments` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`bot_id`) REFERENCES `bots`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `idx_bot_skills_bot_name` ON `bot_skills` (`bot_id`,`name`);--> statement-breakpoint
CREATE TABLE `bot_workflows` (
	`id` text PRIMARY KEY NOT NULL,
	`bot_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`steps` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`bot_id`) REFERENCES `bots`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `idx_bot_workflows_bot_name` ON `bot_workflows` (`bot_id`,`name`);--> statement-breakpoint
ALTER TABLE `bots` ADD `llm_temperature` real;--> statement-breakpoint
ALTER TABLE `bots` ADD `llm_max_tokens` integer;