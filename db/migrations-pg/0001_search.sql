-- Full-text search on PostgreSQL, as SQLite's FTS5 index does it (db/migrations 0003, 0015, 0019),
-- in PostgreSQL's own full-text search: one index of message text, attachment names and text,
-- thread titles and the models' thinking, kept up to date by triggers for rows written by any
-- path, and the passages of knowledge collections with a tsvector of their own. Both GIN-indexed.
--
-- Words as unicode61 with remove_diacritics makes them: folded to lower case and stripped of
-- accents (unaccent), never stemmed, in any language ('simple', not 'english': a library holds
-- many languages, and a stemmer for one mangles the others). The unaccent extension is created
-- in the schema public by db/pg/migrate.ts before this runs (it is trusted: the database's owner
-- may create it).
--
-- Each library is a schema of its own (db/pg/migrate.ts runs this with search_path set to it);
-- the functions keep the search_path they were made with, so they reach their own library's
-- tables whichever connection fires them.
CREATE TEXT SEARCH CONFIGURATION hearth_words (COPY = simple);
--> statement-breakpoint
ALTER TEXT SEARCH CONFIGURATION hearth_words
  ALTER MAPPING FOR asciiword, word, numword, asciihword, hword, numhword, hword_asciipart, hword_part, hword_numpart
  WITH unaccent, simple;
--> statement-breakpoint
-- A text's words. PostgreSQL's parser keeps addresses, file names, paths and decimals whole
-- (example.com, os.path.join, 3.14) where unicode61 splits them at their punctuation, as the
-- query's words are split (lib/data/search/query.ts): punctuation is made a space first, so
-- "join" finds os.path.join on both engines. Bound when it is made (BEGIN ATOMIC), so the
-- configuration is this library's whatever the caller's search_path.
CREATE FUNCTION hearth_words(t text) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE
BEGIN ATOMIC
  SELECT to_tsvector('hearth_words'::regconfig, regexp_replace(t, '[[:punct:]]+', ' ', 'g'));
END;
--> statement-breakpoint
CREATE TABLE search_index (
  id bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
  words tsvector NOT NULL,
  kind text NOT NULL,
  ref_id text NOT NULL,
  thread_id text,
  role text,
  created_at bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX search_index_words_idx ON search_index USING gin (words);
--> statement-breakpoint
CREATE UNIQUE INDEX search_index_ref_idx ON search_index (kind, ref_id);
--> statement-breakpoint
-- Messages: indexed once they are no longer streaming (partial saves during a stream are not).
CREATE FUNCTION search_messages() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    DELETE FROM search_index WHERE kind = 'message' AND ref_id = OLD.id;
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.status <> 'streaming' THEN
    INSERT INTO search_index (words, kind, ref_id, thread_id, role, created_at)
      VALUES (hearth_words(NEW.content), 'message', NEW.id, NEW.thread_id, NEW.role, NEW.created_at);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER messages_search AFTER INSERT OR DELETE OR UPDATE OF content, status ON messages
  FOR EACH ROW EXECUTE FUNCTION search_messages();
--> statement-breakpoint
-- Attachments: the file name and its text; the thread is the one of the message it was sent with.
CREATE FUNCTION search_attachments() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    DELETE FROM search_index WHERE kind = 'attachment' AND ref_id = OLD.id;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO search_index (words, kind, ref_id, thread_id, role, created_at)
      VALUES (hearth_words(NEW.name || E'\n' || NEW.text), 'attachment', NEW.id,
        (SELECT thread_id FROM messages WHERE id = NEW.message_id), 'user', NEW.created_at);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER attachments_search AFTER INSERT OR DELETE OR UPDATE OF message_id, name, text ON attachments
  FOR EACH ROW EXECUTE FUNCTION search_attachments();
--> statement-breakpoint
-- Thread titles (an empty title is not indexed).
CREATE FUNCTION search_threads() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    DELETE FROM search_index WHERE kind = 'title' AND ref_id = OLD.id;
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.title <> '' THEN
    INSERT INTO search_index (words, kind, ref_id, thread_id, role, created_at)
      VALUES (hearth_words(NEW.title), 'title', NEW.id, NEW.id, NULL, NEW.created_at);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER threads_search AFTER INSERT OR DELETE OR UPDATE OF title ON threads
  FOR EACH ROW EXECUTE FUNCTION search_threads();
--> statement-breakpoint
-- A model's thinking, from its turn's compacted log (one `thinking` event per call:
-- [seq, {"type":"thinking","text":…}]), as kind 'thinking'.
-- jsonb refuses the escape \u0000 (a NUL a model wrote): the log is then read without it, and a
-- log that still cannot be read is left out of the search rather than refusing the turn's write.
CREATE FUNCTION turn_thinking(events text) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  BEGIN
    RETURN (SELECT string_agg(e -> 1 ->> 'text', E'\n') FROM jsonb_array_elements(events::jsonb) e WHERE e -> 1 ->> 'type' = 'thinking');
  EXCEPTION WHEN others THEN
    BEGIN
      RETURN (SELECT string_agg(e -> 1 ->> 'text', E'\n')
        FROM jsonb_array_elements(regexp_replace(events, '(?<!\\)\\u0000', '', 'g')::jsonb) e WHERE e -> 1 ->> 'type' = 'thinking');
    EXCEPTION WHEN others THEN
      RETURN NULL;
    END;
  END;
END $$;
--> statement-breakpoint
CREATE FUNCTION search_turns() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  thought text;
BEGIN
  IF TG_OP <> 'INSERT' THEN
    DELETE FROM search_index WHERE kind = 'thinking' AND ref_id = OLD.id;
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.events IS NOT NULL THEN
    thought := turn_thinking(NEW.events);
    IF thought IS NOT NULL THEN
      INSERT INTO search_index (words, kind, ref_id, thread_id, role, created_at)
        VALUES (hearth_words(thought), 'thinking', NEW.id, NEW.thread_id, 'assistant', NEW.created_at);
    END IF;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER turns_search AFTER INSERT OR DELETE OR UPDATE OF events ON turns
  FOR EACH ROW EXECUTE FUNCTION search_turns();
--> statement-breakpoint
-- Passages of knowledge collections: their words beside them (a stored generated column).
ALTER TABLE doc_chunks ADD COLUMN words tsvector GENERATED ALWAYS AS (hearth_words(text)) STORED;
--> statement-breakpoint
CREATE INDEX doc_chunks_words_idx ON doc_chunks USING gin (words);
