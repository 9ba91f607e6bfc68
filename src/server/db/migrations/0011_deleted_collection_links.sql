-- The links of deleted collections answer "deleted" (410), not "no such link" (404).
CREATE TABLE "deleted_collection_links" (
	"slug" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"custom_link" boolean NOT NULL,
	"deleted_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "deleted_collection_links" ADD CONSTRAINT "deleted_collection_links_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;
