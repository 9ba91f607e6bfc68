-- The vault: one per user (its record: KDF parameters and wrapped master keys), its sealed folders,
-- and its items, which are files of the engine (owner kind `vault`) with their sealed part here.
CREATE TABLE "vaults" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"user_id" text NOT NULL,
	"record" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"items_changed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "vaults_user_id_unique" UNIQUE("user_id")
);
--> statement-breakpoint
CREATE TABLE "vault_folders" (
	"id" text PRIMARY KEY NOT NULL,
	"vault_id" text NOT NULL,
	"parent_id" text,
	"sealed_name" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vault_items" (
	"file_id" text PRIMARY KEY NOT NULL,
	"vault_id" text NOT NULL,
	"folder_id" text,
	"sealed_meta" text NOT NULL,
	"sealed_thumb" text DEFAULT '' NOT NULL,
	"wrapped_key" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "vaults" ADD CONSTRAINT "vaults_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vaults" ADD CONSTRAINT "vaults_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vault_folders" ADD CONSTRAINT "vault_folders_vault_id_vaults_id_fk" FOREIGN KEY ("vault_id") REFERENCES "public"."vaults"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vault_folders" ADD CONSTRAINT "vault_folders_parent_id_vault_folders_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."vault_folders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vault_items" ADD CONSTRAINT "vault_items_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vault_items" ADD CONSTRAINT "vault_items_vault_id_vaults_id_fk" FOREIGN KEY ("vault_id") REFERENCES "public"."vaults"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vault_items" ADD CONSTRAINT "vault_items_folder_id_vault_folders_id_fk" FOREIGN KEY ("folder_id") REFERENCES "public"."vault_folders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "vaults_workspace_idx" ON "vaults" USING btree ("workspace_id");--> statement-breakpoint
CREATE INDEX "vault_folders_vault_idx" ON "vault_folders" USING btree ("vault_id");--> statement-breakpoint
CREATE INDEX "vault_folders_parent_idx" ON "vault_folders" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "vault_items_vault_idx" ON "vault_items" USING btree ("vault_id");--> statement-breakpoint
CREATE INDEX "vault_items_folder_idx" ON "vault_items" USING btree ("folder_id");
