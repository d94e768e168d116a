CREATE TABLE `api_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`bot_id` text,
	`token_hash` text NOT NULL,
	`prefix` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`last_used_at` integer,
	`revoked_at` integer,
	FOREIGN KEY (`bot_id`) REFERENCES `bots`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_tokens_token_hash_unique` ON `api_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `idx_api_tokens_bot` ON `api_tokens` (`bot_id`);--> statement-breakpoint
CREATE TABLE `bot_memories` (
	`id` text PRIMARY KEY NOT NULL,
	`bot_id` text NOT NULL,
	`category` text NOT NULL,
	`content` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`bot_id`) REFERENCES `bots`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `idx_bot_memories_bot` ON `bot_memories` (`bot_id`);--> statement-breakpoint
CREATE TABLE `bots` (
	`id` text PRIMARY KEY NOT NULL,
	`slug` text NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`category` text,
	`system_prompt` text,
	`llm_base_url` text,
	`llm_model` text,
	`llm_credential_key` text,
	`sampling_budget_tokens` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `bots_slug_unique` ON `bots` (`slug`);--> statement-breakpoint
CREATE TABLE `mcp_audit` (
	`id` text PRIMARY KEY NOT NULL,
	`direction` text NOT NULL,
	`event_type` text NOT NULL,
	`server_name` text,
	`bot_id` text,
	`client_id` text,
	`tool_name` text,
	`input_hash` text,
	`output_hash` text,
	`duration_ms` integer,
	`success` integer DEFAULT true NOT NULL,
	`error` text,
	`sanitized` integer DEFAULT false NOT NULL,
	`token_usage` integer,
	`timestamp` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	CONSTRAINT "mcp_audit_direction" CHECK("direction" in ('client', 'server'))
);
--> statement-breakpoint
CREATE INDEX `idx_mcp_audit_server` ON `mcp_audit` (`server_name`);--> statement-breakpoint
CREATE INDEX `idx_mcp_audit_bot` ON `mcp_audit` (`bot_id`);--> statement-breakpoint
CREATE INDEX `idx_mcp_audit_timestamp` ON `mcp_audit` (`timestamp`);--> statement-breakpoint
CREATE INDEX `idx_mcp_audit_direction` ON `mcp_audit` (`direction`);--> statement-breakpoint
CREATE TABLE `mcp_connections` (
	`id` text PRIMARY KEY NOT NULL,
	`server_name` text NOT NULL,
	`transport_type` text NOT NULL,
	`status` text NOT NULL,
	`bot_id` text,
	`attempt` integer DEFAULT 0 NOT NULL,
	`next_retry_at` integer,
	`connected_at` integer,
	`disconnected_at` integer,
	`last_health_ping` integer,
	`ping_latency_ms` integer,
	`error_message` text,
	`pid` integer,
	`tool_count` integer DEFAULT 0 NOT NULL,
	`resource_count` integer DEFAULT 0 NOT NULL,
	`resource_template_count` integer DEFAULT 0 NOT NULL,
	`prompt_count` integer DEFAULT 0 NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	CONSTRAINT "mcp_connections_transport_type" CHECK("transport_type" in ('stdio', 'http', 'sse')),
	CONSTRAINT "mcp_connections_status" CHECK("status" in ('connecting', 'connected', 'reconnecting', 'disabled', 'disconnected'))
);
--> statement-breakpoint
CREATE INDEX `idx_mcp_connections_server` ON `mcp_connections` (`server_name`);--> statement-breakpoint
CREATE INDEX `idx_mcp_connections_bot` ON `mcp_connections` (`bot_id`);--> statement-breakpoint
CREATE TABLE `sampling_usage` (
	`id` text PRIMARY KEY NOT NULL,
	`server_name` text NOT NULL,
	`bot_id` text,
	`tokens` integer NOT NULL,
	`at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `idx_sampling_usage_server_at` ON `sampling_usage` (`server_name`,`at`);--> statement-breakpoint
CREATE TABLE `tool_pins` (
	`server_name` text NOT NULL,
	`tool_name` text NOT NULL,
	`hash` text NOT NULL,
	`status` text DEFAULT 'pinned' NOT NULL,
	`pending_hash` text,
	`first_seen_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`server_name`, `tool_name`),
	CONSTRAINT "tool_pins_status" CHECK("status" in ('pinned', 'quarantined', 'approved'))
);
--> statement-breakpoint
CREATE TABLE `upstream_processes` (
	`pid` integer PRIMARY KEY NOT NULL,
	`start_time` text NOT NULL,
	`server_id` text NOT NULL,
	`spawned_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
