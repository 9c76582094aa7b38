-- The event log keyed by (turn, number) alone: WITHOUT ROWID stores each row in its primary
-- key's b-tree, instead of a table plus a second index repeating the turn id of every row.
CREATE TABLE `turn_events_new` (
  `turn_id` text NOT NULL,
  `seq` integer NOT NULL,
  `type` text NOT NULL,
  `data` text NOT NULL,
  `created_at` integer NOT NULL,
  PRIMARY KEY(`turn_id`, `seq`),
  FOREIGN KEY (`turn_id`) REFERENCES `turns`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `turn_events_new` SELECT `turn_id`, `seq`, `type`, `data`, `created_at` FROM `turn_events`;
--> statement-breakpoint
DROP TABLE `turn_events`;
--> statement-breakpoint
ALTER TABLE `turn_events_new` RENAME TO `turn_events`;
