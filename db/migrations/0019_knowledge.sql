CREATE TABLE `chunk_vectors` (
	`chunk_id` integer PRIMARY KEY NOT NULL,
	`vector` blob NOT NULL,
	FOREIGN KEY (`chunk_id`) REFERENCES `doc_chunks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `collection_files` (
	`id` text PRIMARY KEY NOT NULL,
	`collection_id` text NOT NULL,
	`name` text NOT NULL,
	`mime` text NOT NULL,
	`size` integer NOT NULL,
	`sha256` text NOT NULL,
	`kind` text NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`error` text,
	`chunks` integer DEFAULT 0 NOT NULL,
	`embedded` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`collection_id`) REFERENCES `collections`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `collection_files_collection_idx` ON `collection_files` (`collection_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `collection_files_status_idx` ON `collection_files` (`status`);--> statement-breakpoint
CREATE TABLE `collections` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`every_thread` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `doc_chunks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`file_id` text NOT NULL,
	`seq` integer NOT NULL,
	`text` text NOT NULL,
	`page` integer,
	`line_start` integer NOT NULL,
	`line_end` integer NOT NULL,
	`embedded_with` text,
	FOREIGN KEY (`file_id`) REFERENCES `collection_files`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `doc_chunks_file_idx` ON `doc_chunks` (`file_id`,`seq`);--> statement-breakpoint
CREATE INDEX `doc_chunks_unembedded_idx` ON `doc_chunks` (`embedded_with`);--> statement-breakpoint
CREATE TABLE `thread_collections` (
	`thread_id` text NOT NULL,
	`collection_id` text NOT NULL,
	PRIMARY KEY(`thread_id`, `collection_id`),
	FOREIGN KEY (`thread_id`) REFERENCES `threads`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`collection_id`) REFERENCES `collections`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `thread_collections_collection_idx` ON `thread_collections` (`collection_id`);--> statement-breakpoint
CREATE TABLE `vector_index` (
	`id` integer PRIMARY KEY NOT NULL,
	`model` text NOT NULL,
	`dims` integer NOT NULL
);
--> statement-breakpoint
-- Full-text search over the chunks: an external-content index (the text is kept once, in
-- doc_chunks), kept up to date by triggers. Chunks are written once and never edited.
CREATE VIRTUAL TABLE `doc_chunks_fts` USING fts5(
  `text`,
  content = 'doc_chunks',
  content_rowid = 'id',
  tokenize = 'unicode61 remove_diacritics 2'
);
--> statement-breakpoint
CREATE TRIGGER `doc_chunks_fts_insert` AFTER INSERT ON `doc_chunks` BEGIN
  INSERT INTO `doc_chunks_fts` (rowid, `text`) VALUES (new.id, new.text);
END;
--> statement-breakpoint
CREATE TRIGGER `doc_chunks_fts_delete` AFTER DELETE ON `doc_chunks` BEGIN
  INSERT INTO `doc_chunks_fts` (`doc_chunks_fts`, rowid, `text`) VALUES ('delete', old.id, old.text);
END;
--> statement-breakpoint
-- How many chunks hold each term: retrieval leaves out the words nearly every chunk holds.
CREATE VIRTUAL TABLE `doc_chunks_vocab` USING fts5vocab(`doc_chunks_fts`, 'row');
