CREATE TABLE "download_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"transfer_id" text NOT NULL,
	"recipient_id" text,
	"counted_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "downloads" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"transfer_id" text NOT NULL,
	"session_id" text NOT NULL,
	"file_id" text,
	"file_name" text,
	"recipient_email" text,
	"created_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"type" text NOT NULL,
	"data" jsonb NOT NULL,
	"transfer_id" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transfer_files" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"transfer_id" text NOT NULL,
	"seq" bigserial NOT NULL,
	"name" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"mime_type" text NOT NULL,
	"path" text,
	"source" text DEFAULT 'upload' NOT NULL,
	"import_url" text,
	"state" text NOT NULL,
	"error" text,
	"storage_key" text NOT NULL,
	"crc_state" bigint DEFAULT 0 NOT NULL,
	"crc_offset" bigint DEFAULT 0 NOT NULL,
	"crc32" text,
	"scan_result" text,
	"sealed_meta" text,
	"sealed_thumb" text,
	"created_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "transfer_recipients" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"transfer_id" text NOT NULL,
	"email" text NOT NULL,
	"link_token_hash" text NOT NULL,
	"notified_at" timestamp with time zone,
	"downloaded_at" timestamp with time zone,
	"bounced_at" timestamp with time zone,
	"bounce_kind" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "transfer_recipients_link_token_hash_unique" UNIQUE("link_token_hash")
);
--> statement-breakpoint
CREATE TABLE "transfers" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"slug" text NOT NULL,
	"title" text,
	"message" text,
	"status" text DEFAULT 'active' NOT NULL,
	"e2ee" boolean DEFAULT false NOT NULL,
	"e2ee_meta" text,
	"password_hash" text,
	"max_downloads" integer,
	"download_count" integer DEFAULT 0 NOT NULL,
	"max_bytes" bigint NOT NULL,
	"origin" text NOT NULL,
	"finalized_at" timestamp with time zone,
	"ready_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	"expiring_notified_at" timestamp with time zone,
	"purged_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "transfers_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "upload_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"file_id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "download_sessions" ADD CONSTRAINT "download_sessions_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "download_sessions" ADD CONSTRAINT "download_sessions_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "download_sessions" ADD CONSTRAINT "download_sessions_recipient_id_transfer_recipients_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."transfer_recipients"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "downloads" ADD CONSTRAINT "downloads_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "downloads" ADD CONSTRAINT "downloads_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "downloads" ADD CONSTRAINT "downloads_session_id_download_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."download_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_files" ADD CONSTRAINT "transfer_files_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_files" ADD CONSTRAINT "transfer_files_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_recipients" ADD CONSTRAINT "transfer_recipients_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_recipients" ADD CONSTRAINT "transfer_recipients_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upload_tokens" ADD CONSTRAINT "upload_tokens_file_id_transfer_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."transfer_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upload_tokens" ADD CONSTRAINT "upload_tokens_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "download_sessions_transfer_idx" ON "download_sessions" USING btree ("transfer_id");--> statement-breakpoint
CREATE INDEX "downloads_transfer_created_idx" ON "downloads" USING btree ("transfer_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "downloads_session_file_key" ON "downloads" USING btree ("session_id",coalesce("file_id", ''));--> statement-breakpoint
CREATE INDEX "events_workspace_created_idx" ON "events" USING btree ("workspace_id","created_at","id");--> statement-breakpoint
CREATE INDEX "events_transfer_idx" ON "events" USING btree ("transfer_id");--> statement-breakpoint
CREATE INDEX "transfer_files_transfer_idx" ON "transfer_files" USING btree ("transfer_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "transfer_recipients_transfer_email_key" ON "transfer_recipients" USING btree ("transfer_id","email");--> statement-breakpoint
CREATE INDEX "transfers_workspace_created_idx" ON "transfers" USING btree ("workspace_id","created_at","id");--> statement-breakpoint
CREATE INDEX "transfers_expires_idx" ON "transfers" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "upload_tokens_file_idx" ON "upload_tokens" USING btree ("file_id");--> statement-breakpoint
CREATE INDEX "upload_tokens_expires_idx" ON "upload_tokens" USING btree ("expires_at");