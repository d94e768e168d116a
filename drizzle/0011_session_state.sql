CREATE TABLE `session_state` (
	`digest` text NOT NULL,
	`item` text NOT NULL,
	`value` text NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`digest`, `item`)
);
