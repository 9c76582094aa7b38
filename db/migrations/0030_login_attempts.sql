CREATE TABLE `login_attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`scope` text NOT NULL,
	`key` text NOT NULL,
	`at` integer NOT NULL,
	`cleared` integer DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE INDEX `login_attempts_key_idx` ON `login_attempts` (`scope`,`key`,`at`);--> statement-breakpoint
CREATE INDEX `login_attempts_at_idx` ON `login_attempts` (`scope`,`at`);