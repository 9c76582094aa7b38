ALTER TABLE `attachments` ADD `width` integer;--> statement-breakpoint
ALTER TABLE `attachments` ADD `height` integer;