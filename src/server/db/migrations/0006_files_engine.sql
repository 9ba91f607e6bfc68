-- One file engine for every kind of owner: the stored-file part of transfer_files becomes `files`
-- (owner named by kind and id), and transfer_files keeps only what a transfer adds. Events and
-- deliveries name their subject by kind and id instead of a transfer id. Existing rows are kept.
CREATE TABLE "files" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"owner_kind" text NOT NULL,
	"owner_id" text NOT NULL,
	"seq" bigserial NOT NULL,
	"name" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"mime_type" text NOT NULL,
	"source" text DEFAULT 'upload' NOT NULL,
	"import_url" text,
	"state" text NOT NULL,
	"error" text,
	"storage_key" text NOT NULL,
	"crc_state" bigint DEFAULT 0 NOT NULL,
	"crc_offset" bigint DEFAULT 0 NOT NULL,
	"crc32" text,
	"scan_result" text,
	"thumbnail_state" text,
	"thumbnail_key" text,
	"created_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
INSERT INTO "files" ("id", "workspace_id", "owner_kind", "owner_id", "seq", "name", "size_bytes", "mime_type", "source", "import_url", "state", "error", "storage_key", "crc_state", "crc_offset", "crc32", "scan_result", "thumbnail_state", "thumbnail_key", "created_at", "completed_at")
SELECT "id", "workspace_id", 'transfer', "transfer_id", "seq", "name", "size_bytes", "mime_type", "source", "import_url", "state", "error", "storage_key", "crc_state", "crc_offset", "crc32", "scan_result", "thumbnail_state", "thumbnail_key", "created_at", "completed_at" FROM "transfer_files";
--> statement-breakpoint
SELECT setval(pg_get_serial_sequence('files', 'seq'), GREATEST((SELECT max("seq") FROM "files"), 1), (SELECT count(*) > 0 FROM "files"));
--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "files_owner_idx" ON "files" USING btree ("owner_kind","owner_id","seq");--> statement-breakpoint
CREATE INDEX "files_thumbnail_due_idx" ON "files" USING btree ("completed_at") WHERE "files"."thumbnail_state" is null and "files"."state" = 'complete' and "files"."mime_type" like 'image/%';--> statement-breakpoint
ALTER TABLE "upload_tokens" DROP CONSTRAINT "upload_tokens_file_id_transfer_files_id_fk";--> statement-breakpoint
ALTER TABLE "upload_tokens" ADD CONSTRAINT "upload_tokens_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_files" DROP CONSTRAINT "transfer_files_workspace_id_workspaces_id_fk";--> statement-breakpoint
DROP INDEX "transfer_files_thumbnail_due_idx";--> statement-breakpoint
DROP INDEX "transfer_files_transfer_idx";--> statement-breakpoint
ALTER TABLE "transfer_files" DROP CONSTRAINT "transfer_files_pkey";--> statement-breakpoint
ALTER TABLE "transfer_files" RENAME COLUMN "id" TO "file_id";--> statement-breakpoint
ALTER TABLE "transfer_files" ADD PRIMARY KEY ("file_id");--> statement-breakpoint
ALTER TABLE "transfer_files" ADD CONSTRAINT "transfer_files_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "transfer_files_transfer_idx" ON "transfer_files" USING btree ("transfer_id");--> statement-breakpoint
ALTER TABLE "transfer_files" DROP COLUMN "workspace_id", DROP COLUMN "seq", DROP COLUMN "name", DROP COLUMN "size_bytes", DROP COLUMN "mime_type", DROP COLUMN "source", DROP COLUMN "import_url", DROP COLUMN "state", DROP COLUMN "error", DROP COLUMN "storage_key", DROP COLUMN "crc_state", DROP COLUMN "crc_offset", DROP COLUMN "crc32", DROP COLUMN "scan_result", DROP COLUMN "thumbnail_state", DROP COLUMN "thumbnail_key", DROP COLUMN "created_at", DROP COLUMN "completed_at";--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "subject_kind" text;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "subject_id" text;--> statement-breakpoint
UPDATE "events" SET "subject_kind" = 'transfer', "subject_id" = "transfer_id" WHERE "transfer_id" IS NOT NULL;--> statement-breakpoint
DROP INDEX "events_transfer_idx";--> statement-breakpoint
ALTER TABLE "events" DROP COLUMN "transfer_id";--> statement-breakpoint
CREATE INDEX "events_subject_idx" ON "events" USING btree ("subject_kind","subject_id");--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "subject_kind" text;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "subject_id" text;--> statement-breakpoint
UPDATE "webhook_deliveries" SET "subject_kind" = 'transfer', "subject_id" = "transfer_id" WHERE "transfer_id" IS NOT NULL;--> statement-breakpoint
DROP INDEX "webhook_deliveries_transfer_idx";--> statement-breakpoint
ALTER TABLE "webhook_deliveries" DROP COLUMN "transfer_id";--> statement-breakpoint
CREATE INDEX "webhook_deliveries_subject_idx" ON "webhook_deliveries" USING btree ("subject_kind","subject_id");
