-- Who added each collection file (issue 35): a member, or an API key; an upload request's uploader is
-- already named (uploader_name, uploader_email). Null for files added before teams.
ALTER TABLE "collection_files" ADD COLUMN "added_by" text REFERENCES "users"("id") ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE "collection_files" ADD COLUMN "added_by_key" text REFERENCES "api_keys"("id") ON DELETE SET NULL;
