-- Teams (issue 35): a person (`users`, the account) belongs to workspaces through memberships, each
-- with one role; "exactly one owner" is a database fact (the partial unique index). Invitations keep
-- only their token's hash. What members make records who made it.
ALTER TABLE "users" ADD COLUMN "name" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "disabled_at" timestamp with time zone;--> statement-breakpoint
CREATE TABLE "memberships" (
	"workspace_id" text NOT NULL REFERENCES "workspaces"("id") ON DELETE CASCADE,
	"user_id" text NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"role" text NOT NULL CHECK ("role" IN ('owner', 'admin', 'member')),
	"invited_by" text REFERENCES "users"("id") ON DELETE SET NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "memberships_pk" PRIMARY KEY ("workspace_id", "user_id")
);--> statement-breakpoint
CREATE UNIQUE INDEX "memberships_one_owner_key" ON "memberships" ("workspace_id") WHERE "role" = 'owner';--> statement-breakpoint
CREATE INDEX "memberships_user_idx" ON "memberships" ("user_id");--> statement-breakpoint
-- Every account so far made its own workspace: it owns it (the earliest, should a workspace have had several).
INSERT INTO "memberships" ("workspace_id", "user_id", "role", "created_at")
	SELECT "workspace_id", "id", CASE WHEN row_number() OVER (PARTITION BY "workspace_id" ORDER BY "created_at", "id") = 1 THEN 'owner' ELSE 'admin' END, "created_at"
	FROM "users";--> statement-breakpoint
CREATE TABLE "member_invitations" (
	"id" text PRIMARY KEY,
	"workspace_id" text NOT NULL REFERENCES "workspaces"("id") ON DELETE CASCADE,
	"email" text NOT NULL,
	"role" text NOT NULL CHECK ("role" IN ('admin', 'member')),
	"token_hash" text NOT NULL UNIQUE,
	"invited_by" text REFERENCES "users"("id") ON DELETE SET NULL,
	"created_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"accepted_by" text REFERENCES "users"("id") ON DELETE SET NULL,
	"revoked_at" timestamp with time zone
);--> statement-breakpoint
-- One open invitation per address and workspace (an expired one is replaced when the address is invited again).
CREATE UNIQUE INDEX "member_invitations_open_key" ON "member_invitations" ("workspace_id", lower("email")) WHERE "accepted_at" IS NULL AND "revoked_at" IS NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "created_by" text REFERENCES "users"("id") ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE "transfers" ADD COLUMN "created_by" text REFERENCES "users"("id") ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE "transfers" ADD COLUMN "created_by_key" text REFERENCES "api_keys"("id") ON DELETE SET NULL;--> statement-breakpoint
-- "Mine" in the transfer list: a member's own transfers, newest first.
CREATE INDEX "transfers_workspace_creator_idx" ON "transfers" ("workspace_id", "created_by", "created_at", "id");
