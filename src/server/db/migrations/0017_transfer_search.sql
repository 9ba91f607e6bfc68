-- A transfer holds what the list searches and sorts by, so that each is one index of `transfers`.
-- `q` finds a transfer by its title or any of its file names, newest first. With the names only in
-- `files`, a common word (1 % of a million transfers) meant finding every matching file, then each
-- one's transfer for its date: about 10x a plain page. `sort=size` summed every transfer's files on
-- every page, so it grew with the workspace. Now each transfer has `file_names` (one per line, in
-- upload order) and `size_bytes` (the sum of its files' sizes), kept by the database whatever
-- statement adds, renames, resizes (an import learning its size) or removes a file.
ALTER TABLE "transfers" ADD COLUMN "file_names" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "transfers" ADD COLUMN "size_bytes" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The transfers' rows are locked first, in id order, and their files read by a second statement:
-- in READ COMMITTED that one sees the files of a concurrent transaction that held the lock, so two
-- batches added at once cannot drop each other's names.
CREATE FUNCTION "transfers_refresh_files"("ids" text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM "transfers" WHERE "id" = ANY("ids") ORDER BY "id" FOR UPDATE;
  UPDATE "transfers" SET "file_names" = "s"."names", "size_bytes" = "s"."bytes"
    FROM (SELECT "t"."id", coalesce(string_agg("f"."name", E'\n' ORDER BY "f"."seq"), '') AS "names", coalesce(sum("f"."size_bytes"), 0) AS "bytes"
            FROM unnest("ids") AS "t"("id")
            LEFT JOIN "files" AS "f" ON "f"."owner_kind" = 'transfer' AND "f"."owner_id" = "t"."id"
           GROUP BY "t"."id") AS "s"
   WHERE "transfers"."id" = "s"."id";
END
$$;--> statement-breakpoint
-- Once per statement, for the transfers it touched.
CREATE FUNCTION "files_changed_refresh_transfers"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "transfers_refresh_files"(ARRAY(SELECT DISTINCT "owner_id" FROM "changed_files" WHERE "owner_kind" = 'transfer'));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "files_added_refresh_transfers" AFTER INSERT ON "files" REFERENCING NEW TABLE AS "changed_files"
  FOR EACH STATEMENT EXECUTE FUNCTION "files_changed_refresh_transfers"();--> statement-breakpoint
CREATE TRIGGER "files_removed_refresh_transfers" AFTER DELETE ON "files" REFERENCING OLD TABLE AS "changed_files"
  FOR EACH STATEMENT EXECUTE FUNCTION "files_changed_refresh_transfers"();--> statement-breakpoint
-- Renames and resizes: transition tables cannot go with a column list, and most updates of `files`
-- are upload progress, so these get a row trigger that fires only when `name` or `size_bytes` is set.
CREATE FUNCTION "file_changed_refresh_transfer"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "transfers_refresh_files"(ARRAY[NEW."owner_id"]);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "file_changed_refresh_transfer" AFTER UPDATE OF "name", "size_bytes" ON "files"
  FOR EACH ROW WHEN (NEW."owner_kind" = 'transfer' AND (OLD."name" IS DISTINCT FROM NEW."name" OR OLD."size_bytes" IS DISTINCT FROM NEW."size_bytes"))
  EXECUTE FUNCTION "file_changed_refresh_transfer"();--> statement-breakpoint
UPDATE "transfers" SET "file_names" = "f"."names", "size_bytes" = "f"."bytes"
  FROM (SELECT "owner_id", string_agg("name", E'\n' ORDER BY "seq") AS "names", sum("size_bytes") AS "bytes" FROM "files" WHERE "owner_kind" = 'transfer' GROUP BY "owner_id") AS "f"
 WHERE "f"."owner_id" = "transfers"."id";--> statement-breakpoint
DROP INDEX "transfers_workspace_title_trgm_idx";--> statement-breakpoint
DROP INDEX "files_workspace_name_trgm_idx";--> statement-breakpoint
CREATE INDEX "transfers_search_trgm_idx" ON "transfers" USING gin ("workspace_id","title" gin_trgm_ops,"file_names" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "transfers_workspace_size_idx" ON "transfers" USING btree ("workspace_id","size_bytes","id");--> statement-breakpoint
CREATE INDEX "transfers_workspace_expires_idx" ON "transfers" USING btree ("workspace_id","expires_at","id");
