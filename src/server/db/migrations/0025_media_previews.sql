-- Previews of videos, audio and PDFs (issue 37): the worker claims files under a lease, as it does scans, because a
-- poster or a first page takes seconds, not milliseconds, and a transaction must not stay open that long. Every
-- complete file is tried once (the worker decides what it can preview), so the queue is no longer images only.
ALTER TABLE "files" ADD COLUMN "thumbnail_lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "thumbnail_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
DROP INDEX IF EXISTS "files_thumbnail_due_idx";--> statement-breakpoint
CREATE INDEX "files_thumbnail_due_idx" ON "files" ("completed_at") WHERE "thumbnail_state" IS NULL AND "state" = 'complete';
