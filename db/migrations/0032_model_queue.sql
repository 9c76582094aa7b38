CREATE TABLE `model_queue` (
	`turn_id` text PRIMARY KEY NOT NULL,
	`process` text NOT NULL,
	`thread_id` text NOT NULL,
	`person` text,
	`model` text,
	`avoid_url` text,
	`seq` integer NOT NULL,
	`server_url` text,
	`slot` integer,
	`refused` integer DEFAULT false NOT NULL,
	`lease_until` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `model_queue_lease_idx` ON `model_queue` (`lease_until`);