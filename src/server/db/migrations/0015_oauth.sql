-- The OAuth authorization server's storage (oidc-provider's models in one table; token ids hashed).
CREATE TABLE "oauth_store" (
	"model" text NOT NULL,
	"id" text NOT NULL,
	"grant_id" text,
	"uid" text,
	"user_code" text,
	"account_id" text,
	"client_id" text,
	"payload" jsonb NOT NULL,
	"consumed_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	CONSTRAINT "oauth_store_model_id_pk" PRIMARY KEY("model","id")
);
--> statement-breakpoint
CREATE INDEX "oauth_store_grant_idx" ON "oauth_store" USING btree ("grant_id");--> statement-breakpoint
CREATE INDEX "oauth_store_uid_idx" ON "oauth_store" USING btree ("uid");--> statement-breakpoint
CREATE INDEX "oauth_store_account_idx" ON "oauth_store" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "oauth_store_expires_idx" ON "oauth_store" USING btree ("expires_at");
