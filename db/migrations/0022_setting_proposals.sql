CREATE TABLE `setting_proposals` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`proposed_at` integer NOT NULL
);
