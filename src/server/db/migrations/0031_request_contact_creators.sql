-- Who made each upload request and contact (issue 35), as transfers record who sent them (0018): the
-- member, or the API key. Null for those made before.
ALTER TABLE "upload_requests" ADD COLUMN "created_by" text REFERENCES "users"("id") ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE "upload_requests" ADD COLUMN "created_by_key" text REFERENCES "api_keys"("id") ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "created_by" text REFERENCES "users"("id") ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "created_by_key" text REFERENCES "api_keys"("id") ON DELETE SET NULL;
