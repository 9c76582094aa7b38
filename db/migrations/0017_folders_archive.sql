CREATE TABLE `folders` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `threads` ADD `folder_id` text;--> statement-breakpoint
ALTER TABLE `threads` ADD `archived` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `threads_folder_idx` ON `threads` (`folder_id`);