CREATE TABLE `attachments` (
	`id` text PRIMARY KEY NOT NULL,
	`message_id` text,
	`name` text NOT NULL,
	`mime` text NOT NULL,
	`size` integer NOT NULL,
	`sha256` text NOT NULL,
	`text` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`message_id`) REFERENCES `messages`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `attachments_message_idx` ON `attachments` (`message_id`);--> statement-breakpoint
CREATE TABLE `decision_records` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`layer_id` text NOT NULL,
	`scope` text NOT NULL,
	`scope_key` text NOT NULL,
	`turn_id` text,
	`thread_id` text,
	`step_id` text NOT NULL,
	`at` integer NOT NULL,
	`model_id` text NOT NULL,
	`source` text NOT NULL,
	`answers` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `decision_records_scope_idx` ON `decision_records` (`layer_id`,`scope`,`scope_key`,`id`);--> statement-breakpoint
CREATE INDEX `decision_records_thread_idx` ON `decision_records` (`thread_id`,`id`);--> statement-breakpoint
CREATE TABLE `host_penalties` (
	`host` text PRIMARY KEY NOT NULL,
	`until` integer NOT NULL,
	`trips` integer DEFAULT 0 NOT NULL,
	`reason` text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE `host_spend` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`host` text NOT NULL,
	`at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `host_spend_idx` ON `host_spend` (`host`,`at`);--> statement-breakpoint
CREATE TABLE `memories` (
	`id` text PRIMARY KEY NOT NULL,
	`text` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `messages` (
	`id` text PRIMARY KEY NOT NULL,
	`thread_id` text NOT NULL,
	`turn_id` text,
	`role` text NOT NULL,
	`content` text NOT NULL,
	`status` text DEFAULT 'complete' NOT NULL,
	`error_code` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`thread_id`) REFERENCES `threads`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `messages_thread_idx` ON `messages` (`thread_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `threads` (
	`id` text PRIMARY KEY NOT NULL,
	`title` text DEFAULT '' NOT NULL,
	`system_prompt` text DEFAULT '' NOT NULL,
	`pinned` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `threads_updated_idx` ON `threads` (`pinned`,`updated_at`,`id`);--> statement-breakpoint
CREATE TABLE `tool_calls` (
	`id` text PRIMARY KEY NOT NULL,
	`turn_id` text NOT NULL,
	`thread_id` text NOT NULL,
	`name` text NOT NULL,
	`arguments` text NOT NULL,
	`ok` integer NOT NULL,
	`result` text NOT NULL,
	`repeat` integer DEFAULT false NOT NULL,
	`ms` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`turn_id`) REFERENCES `turns`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `tool_calls_turn_idx` ON `tool_calls` (`turn_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `turn_events` (
	`turn_id` text NOT NULL,
	`seq` integer NOT NULL,
	`type` text NOT NULL,
	`data` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`turn_id`, `seq`),
	FOREIGN KEY (`turn_id`) REFERENCES `turns`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `turn_steps` (
	`turn_id` text NOT NULL,
	`seq` integer NOT NULL,
	`kind` text NOT NULL,
	`data` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`turn_id`, `seq`),
	FOREIGN KEY (`turn_id`) REFERENCES `turns`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `turns` (
	`id` text PRIMARY KEY NOT NULL,
	`thread_id` text NOT NULL,
	`user_message_id` text NOT NULL,
	`assistant_message_id` text,
	`status` text NOT NULL,
	`stats` text,
	`created_at` integer NOT NULL,
	`finished_at` integer,
	FOREIGN KEY (`thread_id`) REFERENCES `threads`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `turns_thread_idx` ON `turns` (`thread_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `turns_status_idx` ON `turns` (`status`);