ALTER TABLE `attachments` ADD `kind` text DEFAULT 'text' NOT NULL;--> statement-breakpoint
ALTER TABLE `attachments` ADD `chars` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `attachments` ADD `lines` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Files attached before this kept only their text (at most 40,000 characters), in this table.
UPDATE `attachments` SET `chars` = length(`text`), `lines` = length(`text`) - length(replace(`text`, char(10), '')) + (CASE WHEN `text` = '' THEN 0 ELSE 1 END);
