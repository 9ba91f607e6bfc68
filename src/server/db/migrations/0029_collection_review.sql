-- Review in collections (issue 37): comments threaded by file from guests and members, a review state per file
-- (approved or changes requested: the latest decision counts), and how the workspace hears of guests' reviews
-- (a daily digest by default, each event, or not at all), per collection.
CREATE TABLE "collection_comments" (
  "id" text PRIMARY KEY,
  "seq" bigserial NOT NULL,
  "collection_id" text NOT NULL REFERENCES "collections"("id") ON DELETE CASCADE,
  "file_id" text NOT NULL REFERENCES "files"("id") ON DELETE CASCADE,
  "author_kind" text NOT NULL,
  "author_id" text,
  "author_email" text,
  "author_name" text,
  "body" text NOT NULL,
  "created_at" timestamp with time zone NOT NULL
);--> statement-breakpoint
CREATE INDEX "collection_comments_file_idx" ON "collection_comments" ("file_id", "created_at");--> statement-breakpoint
CREATE INDEX "collection_comments_collection_idx" ON "collection_comments" ("collection_id", "created_at");--> statement-breakpoint
ALTER TABLE "collection_files" ADD COLUMN "review_state" text;--> statement-breakpoint
ALTER TABLE "collection_files" ADD COLUMN "reviewed_by_kind" text;--> statement-breakpoint
ALTER TABLE "collection_files" ADD COLUMN "reviewed_by_email" text;--> statement-breakpoint
ALTER TABLE "collection_files" ADD COLUMN "reviewed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "collections" ADD COLUMN "review_mail" text DEFAULT 'daily' NOT NULL;--> statement-breakpoint
ALTER TABLE "collections" ADD COLUMN "review_digest_at" timestamp with time zone;
