CREATE TABLE `closed_sessions` (
	`digest` text PRIMARY KEY NOT NULL,
	`closed_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
