ALTER TABLE `messages` ADD `parent_id` text;--> statement-breakpoint
CREATE INDEX `messages_parent_idx` ON `messages` (`parent_id`);--> statement-breakpoint
ALTER TABLE `threads` ADD `current_leaf_id` text;--> statement-breakpoint
-- Threads so far were one line: each message follows the one before it, in the order the page
-- showed them (time, then an answer before a question stored in the same millisecond).
UPDATE `messages` SET `parent_id` = (
  SELECT `prev` FROM (
    SELECT `id`, lag(`id`) OVER (PARTITION BY `thread_id` ORDER BY `created_at`, `role`, `id`) AS `prev` FROM `messages`
  ) AS `ordered` WHERE `ordered`.`id` = `messages`.`id`
);
--> statement-breakpoint
-- Each thread shows its newest message, as before.
UPDATE `threads` SET `current_leaf_id` = (
  SELECT `id` FROM `messages` WHERE `messages`.`thread_id` = `threads`.`id` ORDER BY `created_at` DESC, `role` DESC, `id` DESC LIMIT 1
);
