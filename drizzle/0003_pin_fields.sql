ALTER TABLE `tool_pins` ADD `fields` text;--> statement-breakpoint
ALTER TABLE `tool_pins` ADD `pending_fields` text;