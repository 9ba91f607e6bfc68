CREATE TABLE "upload_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"collection_id" text,
	"folder_id" text,
	"slug" text NOT NULL,
	"title" text NOT NULL,
	"message" text,
	"status" text DEFAULT 'open' NOT NULL,
	"deadline" timestamp with time zone,
	"max_files" integer,
	"max_bytes" bigint,
	"allowed_types" text[] DEFAULT '{}'::text[] NOT NULL,
	"require_email" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "upload_requests_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "request_submissions" (
	"id" text PRIMARY KEY NOT NULL,
	"request_id" text NOT NULL,
	"collection_id" text,
	"folder_id" text,
	"uploader_name" text NOT NULL,
	"uploader_email" text,
	"message" text,
	"token_hash" text NOT NULL,
	"status" text DEFAULT 'uploading' NOT NULL,
	"finished_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"owner_notified_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "collection_files" ADD COLUMN "submission_id" text;--> statement-breakpoint
ALTER TABLE "upload_requests" ADD CONSTRAINT "upload_requests_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upload_requests" ADD CONSTRAINT "upload_requests_collection_id_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."collections"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upload_requests" ADD CONSTRAINT "upload_requests_folder_id_collection_folders_id_fk" FOREIGN KEY ("folder_id") REFERENCES "public"."collection_folders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_submissions" ADD CONSTRAINT "request_submissions_request_id_upload_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."upload_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_submissions" ADD CONSTRAINT "request_submissions_collection_id_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."collections"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_submissions" ADD CONSTRAINT "request_submissions_folder_id_collection_folders_id_fk" FOREIGN KEY ("folder_id") REFERENCES "public"."collection_folders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_files" ADD CONSTRAINT "collection_files_submission_id_request_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."request_submissions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "upload_requests_workspace_idx" ON "upload_requests" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "upload_requests_collection_idx" ON "upload_requests" USING btree ("collection_id");--> statement-breakpoint
CREATE INDEX "request_submissions_request_idx" ON "request_submissions" USING btree ("request_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "request_submissions_token_key" ON "request_submissions" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "collection_files_submission_idx" ON "collection_files" USING btree ("submission_id");
