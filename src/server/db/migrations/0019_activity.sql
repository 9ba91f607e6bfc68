-- The activity log (issue 35): who did what in a workspace, for its owner and admins. Names are
-- copied at the time, so no foreign key holds a person or a key; entries go after ACTIVITY_RETENTION_DAYS.
CREATE TABLE "activity" (
	"id" text PRIMARY KEY,
	"seq" bigserial NOT NULL,
	"workspace_id" text NOT NULL REFERENCES "workspaces"("id") ON DELETE CASCADE,
	"at" timestamp with time zone NOT NULL,
	"kind" text NOT NULL,
	"actor_type" text NOT NULL CHECK ("actor_type" IN ('member', 'api_key', 'operator', 'system')),
	"actor_id" text,
	"actor_name" text NOT NULL,
	"actor_email" text,
	"subject_type" text,
	"subject_id" text,
	"subject_name" text,
	"detail" jsonb NOT NULL
);--> statement-breakpoint
CREATE INDEX "activity_workspace_seq_idx" ON "activity" ("workspace_id", "seq");--> statement-breakpoint
CREATE INDEX "activity_workspace_actor_idx" ON "activity" ("workspace_id", "actor_id", "seq");--> statement-breakpoint
CREATE INDEX "activity_at_idx" ON "activity" ("at");
