CREATE TABLE "collection_files" (
	"file_id" text PRIMARY KEY NOT NULL,
	"collection_id" text NOT NULL,
	"folder_id" text,
	"source" text NOT NULL,
	"uploader_name" text,
	"uploader_email" text,
	"announced_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "collection_folders" (
	"id" text PRIMARY KEY NOT NULL,
	"collection_id" text NOT NULL,
	"parent_id" text,
	"name" text NOT NULL,
	"path" text NOT NULL,
	"depth" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "collection_guests" (
	"id" text PRIMARY KEY NOT NULL,
	"collection_id" text NOT NULL,
	"email" text NOT NULL,
	"invited_at" timestamp with time zone NOT NULL,
	"last_visit_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "guest_sign_ins" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"guest_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "collection_files" ADD CONSTRAINT "collection_files_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_files" ADD CONSTRAINT "collection_files_collection_id_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."collections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_files" ADD CONSTRAINT "collection_files_folder_id_collection_folders_id_fk" FOREIGN KEY ("folder_id") REFERENCES "public"."collection_folders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_folders" ADD CONSTRAINT "collection_folders_collection_id_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."collections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_folders" ADD CONSTRAINT "collection_folders_parent_id_collection_folders_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."collection_folders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_guests" ADD CONSTRAINT "collection_guests_collection_id_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."collections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guest_sign_ins" ADD CONSTRAINT "guest_sign_ins_guest_id_collection_guests_id_fk" FOREIGN KEY ("guest_id") REFERENCES "public"."collection_guests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "collection_files_collection_idx" ON "collection_files" USING btree ("collection_id");--> statement-breakpoint
CREATE INDEX "collection_files_folder_idx" ON "collection_files" USING btree ("folder_id");--> statement-breakpoint
CREATE UNIQUE INDEX "collection_folders_path_key" ON "collection_folders" USING btree ("collection_id",lower("path"));--> statement-breakpoint
CREATE INDEX "collection_folders_parent_idx" ON "collection_folders" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "collection_folders_path_prefix_idx" ON "collection_folders" USING btree ("collection_id","path" text_pattern_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "collection_guests_collection_email_key" ON "collection_guests" USING btree ("collection_id","email");--> statement-breakpoint
CREATE INDEX "guest_sign_ins_guest_idx" ON "guest_sign_ins" USING btree ("guest_id");--> statement-breakpoint
CREATE INDEX "guest_sign_ins_expires_idx" ON "guest_sign_ins" USING btree ("expires_at");