CREATE TABLE "password_resets" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "signup_invites" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"token_hash" text NOT NULL,
	"invited_by" text,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	CONSTRAINT "signup_invites_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "download_sessions" ADD COLUMN "sender_notified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "transfer_files" ADD COLUMN "thumbnail_state" text;--> statement-breakpoint
ALTER TABLE "transfer_files" ADD COLUMN "thumbnail_key" text;--> statement-breakpoint
ALTER TABLE "transfers" ADD COLUMN "notify_downloads" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "transfers" ADD COLUMN "notify_before_expiry" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "transfers" ADD COLUMN "expiry_reminder_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "is_operator" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "disabled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "notify_downloads" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "notify_before_expiry" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "password_resets" ADD CONSTRAINT "password_resets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signup_invites" ADD CONSTRAINT "signup_invites_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "password_resets_user_idx" ON "password_resets" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "password_resets_expires_idx" ON "password_resets" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "signup_invites_email_idx" ON "signup_invites" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "transfer_files_thumbnail_due_idx" ON "transfer_files" USING btree ("completed_at") WHERE "transfer_files"."thumbnail_state" is null and "transfer_files"."state" = 'complete' and "transfer_files"."mime_type" like 'image/%';--> statement-breakpoint
-- On a server that already has accounts, the first one created is the operator's.
UPDATE "users" SET "is_operator" = true WHERE "id" = (SELECT "id" FROM "users" ORDER BY "created_at", "id" LIMIT 1);
