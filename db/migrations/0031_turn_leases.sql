ALTER TABLE `turns` ADD `lease_owner` text;--> statement-breakpoint
ALTER TABLE `turns` ADD `lease_until` integer;