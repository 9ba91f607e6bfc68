-- A trash for collections (issue 37): a deleted file or folder is kept 30 days, out of every listing, zip and link,
-- then purged with its bytes by the sweep, unless its owner restores it or deletes it for good first. `trash_batch`
-- names what the owner deleted (the file itself, or the folder at the top of what went with it), so a restore
-- brings back exactly that. A trashed folder's subtree moves to a path of its own (outside every live path), and
-- where it was is kept to go back to.
ALTER TABLE "collection_files" ADD COLUMN "trashed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "collection_files" ADD COLUMN "trash_batch" text;--> statement-breakpoint
ALTER TABLE "collection_files" ADD COLUMN "trashed_from_folder_id" text;--> statement-breakpoint
ALTER TABLE "collection_folders" ADD COLUMN "trashed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "collection_folders" ADD COLUMN "trash_batch" text;--> statement-breakpoint
ALTER TABLE "collection_folders" ADD COLUMN "trashed_from_parent_id" text;--> statement-breakpoint
ALTER TABLE "collection_folders" ADD COLUMN "trashed_path" text;--> statement-breakpoint
CREATE INDEX "collection_files_trash_idx" ON "collection_files" ("collection_id", "trash_batch") WHERE "trashed_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "collection_folders_trash_idx" ON "collection_folders" ("collection_id", "trash_batch") WHERE "trashed_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "collection_files_trashed_at_idx" ON "collection_files" ("trashed_at") WHERE "trashed_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "collection_folders_trashed_at_idx" ON "collection_folders" ("trashed_at") WHERE "trashed_at" IS NOT NULL;
