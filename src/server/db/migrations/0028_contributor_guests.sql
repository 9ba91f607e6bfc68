-- Guests who contribute (issue 37): a guest is a viewer (as before) or a contributor, who may also upload into the
-- collection, or into one folder and what is under it. The folder has no foreign key on purpose: once it is gone (or
-- in the trash), the guest may upload nowhere, rather than everywhere. What a guest adds says so.
ALTER TABLE "collection_guests" ADD COLUMN "role" text DEFAULT 'viewer' NOT NULL;--> statement-breakpoint
ALTER TABLE "collection_guests" ADD COLUMN "upload_folder_id" text;--> statement-breakpoint
ALTER TABLE "collection_files" ADD COLUMN "added_by_guest" text REFERENCES "collection_guests"("id") ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE "collection_files" ADD COLUMN "added_by_guest_email" text;
