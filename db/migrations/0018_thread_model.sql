ALTER TABLE `messages` ADD `model` text;--> statement-breakpoint
ALTER TABLE `threads` ADD `model` text;