DROP INDEX `decision_records_thread_idx`;--> statement-breakpoint
ALTER TABLE `turns` ADD `events` text;