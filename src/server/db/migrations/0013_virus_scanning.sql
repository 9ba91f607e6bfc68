-- Virus scanning: the scanner's verdict and signature, its lease (and retry time), and attempts;
-- and the holder of an import's lease, so that a worker that lost its lease stops writing.
ALTER TABLE "files" ADD COLUMN "import_lease_holder" text;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "scan_signature" text;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "scan_error" text;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "scan_lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "scan_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "files_scan_due_idx" ON "files" USING btree ("scan_lease_until") WHERE "files"."scan_result" is null and "files"."state" = 'complete';
