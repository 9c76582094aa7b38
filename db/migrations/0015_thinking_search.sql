-- A model's thinking, kept in its turn's compacted log (lib/turns/compact.ts: one `thinking`
-- event per call, [seq, {"type":"thinking","text":…}]), joins the search index as kind
-- 'thinking', so a search that asks for it finds it (GET /api/search?thinking=true); others
-- leave it out. Triggers, as for messages (0003), keep it up to date for rows written by any
-- path: a turn compacted, a library imported, a thread deleted.
ALTER TABLE `turns` ADD `search_rowid` integer;
--> statement-breakpoint
CREATE TRIGGER `turns_thinking_search_insert` AFTER INSERT ON `turns`
WHEN new.events IS NOT NULL AND EXISTS (SELECT 1 FROM json_each(new.events) WHERE json_extract(value, '$[1].type') = 'thinking') BEGIN
  INSERT INTO `search_index` (`text`, `kind`, `ref_id`, `thread_id`, `role`, `created_at`)
    SELECT group_concat(json_extract(value, '$[1].text'), char(10)), 'thinking', new.id, new.thread_id, 'assistant', new.created_at
    FROM json_each(new.events) WHERE json_extract(value, '$[1].type') = 'thinking';
  UPDATE `turns` SET `search_rowid` = last_insert_rowid() WHERE rowid = new.rowid;
END;
--> statement-breakpoint
CREATE TRIGGER `turns_thinking_search_update` AFTER UPDATE OF `events` ON `turns` BEGIN
  DELETE FROM `search_index` WHERE rowid = old.search_rowid;
  UPDATE `turns` SET `search_rowid` = NULL WHERE rowid = new.rowid;
  INSERT INTO `search_index` (`text`, `kind`, `ref_id`, `thread_id`, `role`, `created_at`)
    SELECT group_concat(json_extract(value, '$[1].text'), char(10)), 'thinking', new.id, new.thread_id, 'assistant', new.created_at
    FROM json_each(new.events) WHERE json_extract(value, '$[1].type') = 'thinking'
    HAVING count(*) > 0;
  UPDATE `turns` SET `search_rowid` = last_insert_rowid()
    WHERE rowid = new.rowid AND new.events IS NOT NULL
      AND EXISTS (SELECT 1 FROM json_each(new.events) WHERE json_extract(value, '$[1].type') = 'thinking');
END;
--> statement-breakpoint
CREATE TRIGGER `turns_thinking_search_delete` AFTER DELETE ON `turns` WHEN old.search_rowid IS NOT NULL BEGIN
  DELETE FROM `search_index` WHERE rowid = old.search_rowid;
END;
