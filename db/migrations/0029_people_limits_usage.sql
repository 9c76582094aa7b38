CREATE TABLE `usage` (
	`day` text NOT NULL,
	`model` text NOT NULL,
	`turns` integer DEFAULT 0 NOT NULL,
	`prompt_tokens` integer DEFAULT 0 NOT NULL,
	`generated_tokens` integer DEFAULT 0 NOT NULL,
	`model_ms` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`day`, `model`)
);
--> statement-breakpoint
ALTER TABLE `collections` ADD `shared` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `turns_per_day` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `fuel_per_turn` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `oidc_subject` text;--> statement-breakpoint
ALTER TABLE `users` ADD `email` text;--> statement-breakpoint
ALTER TABLE `users` ADD `proxy_user` text;--> statement-breakpoint
CREATE UNIQUE INDEX `users_oidc_subject_unique` ON `users` (`oidc_subject`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_proxy_user_unique` ON `users` (`proxy_user`);