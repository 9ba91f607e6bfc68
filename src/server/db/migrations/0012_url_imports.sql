-- URL imports: the origin's validator for resuming, the fetcher's lease, and attempts.
ALTER TABLE "files" ADD COLUMN "import_validator" text;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "import_lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "import_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "files_importing_idx" ON "files" USING btree ("import_lease_until") WHERE "files"."state" = 'importing';
