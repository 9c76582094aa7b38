ALTER TABLE `attachments` ADD `search_rowid` integer;--> statement-breakpoint
ALTER TABLE `messages` ADD `search_rowid` integer;--> statement-breakpoint
ALTER TABLE `threads` ADD `search_rowid` integer;