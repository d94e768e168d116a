ALTER TABLE `tool_pins` ADD `last_seen_at` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `tool_pins` ADD `server_removed_at` integer;--> statement-breakpoint
-- Pins made before this migration count as seen now: a gone tool's grace starts at the upgrade.
UPDATE `tool_pins` SET `last_seen_at` = cast(unixepoch('subsec') * 1000 as integer);--> statement-breakpoint
-- The full texts older pins kept are cut to 2,000 characters with their length (no hash: SQLite has none).
UPDATE `tool_pins` SET `fields` = json_object(
  'description', json(CASE WHEN `fields` ->> '$.description' IS NULL THEN NULL ELSE json_object('text', substr(`fields` ->> '$.description', 1, 2000), 'length', length(`fields` ->> '$.description'), 'sha256', NULL) END),
  'title', json(CASE WHEN `fields` ->> '$.title' IS NULL THEN NULL ELSE json_object('text', substr(`fields` ->> '$.title', 1, 2000), 'length', length(`fields` ->> '$.title'), 'sha256', NULL) END),
  'inputSchema', json(CASE WHEN json_type(`fields`, '$.inputSchema') IS NULL OR json_type(`fields`, '$.inputSchema') = 'null' THEN NULL ELSE json_object('text', substr(`fields` -> '$.inputSchema', 1, 2000), 'length', length(`fields` -> '$.inputSchema'), 'sha256', NULL) END),
  'outputSchema', json(CASE WHEN json_type(`fields`, '$.outputSchema') IS NULL OR json_type(`fields`, '$.outputSchema') = 'null' THEN NULL ELSE json_object('text', substr(`fields` -> '$.outputSchema', 1, 2000), 'length', length(`fields` -> '$.outputSchema'), 'sha256', NULL) END)
) WHERE `fields` IS NOT NULL;--> statement-breakpoint
UPDATE `tool_pins` SET `pending_fields` = json_object(
  'description', json(CASE WHEN `pending_fields` ->> '$.description' IS NULL THEN NULL ELSE json_object('text', substr(`pending_fields` ->> '$.description', 1, 2000), 'length', length(`pending_fields` ->> '$.description'), 'sha256', NULL) END),
  'title', json(CASE WHEN `pending_fields` ->> '$.title' IS NULL THEN NULL ELSE json_object('text', substr(`pending_fields` ->> '$.title', 1, 2000), 'length', length(`pending_fields` ->> '$.title'), 'sha256', NULL) END),
  'inputSchema', json(CASE WHEN json_type(`pending_fields`, '$.inputSchema') IS NULL OR json_type(`pending_fields`, '$.inputSchema') = 'null' THEN NULL ELSE json_object('text', substr(`pending_fields` -> '$.inputSchema', 1, 2000), 'length', length(`pending_fields` -> '$.inputSchema'), 'sha256', NULL) END),
  'outputSchema', json(CASE WHEN json_type(`pending_fields`, '$.outputSchema') IS NULL OR json_type(`pending_fields`, '$.outputSchema') = 'null' THEN NULL ELSE json_object('text', substr(`pending_fields` -> '$.outputSchema', 1, 2000), 'length', length(`pending_fields` -> '$.outputSchema'), 'sha256', NULL) END)
) WHERE `pending_fields` IS NOT NULL;
