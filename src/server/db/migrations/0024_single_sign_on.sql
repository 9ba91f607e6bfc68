-- Single sign-on with OpenID Connect (issue 36): the identity providers the operator set up, the email
-- domains workspaces tie to one, who signed in through which (by the provider's subject), and a
-- workspace's requirement that its members sign in that way.
CREATE TABLE "identity_providers" (
  "id" text PRIMARY KEY,
  "name" text NOT NULL,
  "issuer" text NOT NULL,
  "client_id" text NOT NULL,
  "client_secret_sealed" text NOT NULL,
  "created_at" timestamp with time zone NOT NULL
);--> statement-breakpoint
CREATE TABLE "sign_in_domains" (
  "domain" text PRIMARY KEY,
  "workspace_id" text NOT NULL REFERENCES "workspaces"("id") ON DELETE CASCADE,
  "provider_id" text NOT NULL REFERENCES "identity_providers"("id") ON DELETE CASCADE,
  "created_at" timestamp with time zone NOT NULL
);--> statement-breakpoint
CREATE INDEX "sign_in_domains_workspace_idx" ON "sign_in_domains" ("workspace_id");--> statement-breakpoint
CREATE TABLE "sso_identities" (
  "provider_id" text NOT NULL REFERENCES "identity_providers"("id") ON DELETE CASCADE,
  "subject" text NOT NULL,
  "user_id" text NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "created_at" timestamp with time zone NOT NULL,
  "last_used_at" timestamp with time zone NOT NULL,
  PRIMARY KEY ("provider_id", "subject")
);--> statement-breakpoint
CREATE INDEX "sso_identities_user_idx" ON "sso_identities" ("user_id");--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "require_single_sign_on" boolean NOT NULL DEFAULT false;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "sso_provider_id" text REFERENCES "identity_providers"("id") ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE "sign_in_challenges" ADD COLUMN "sso_provider_id" text REFERENCES "identity_providers"("id") ON DELETE CASCADE;--> statement-breakpoint
-- The challenge a browser must answer (a passkey's, a single sign-on's state) is one kind of row now.
ALTER TABLE "webauthn_challenges" RENAME TO "browser_challenges";--> statement-breakpoint
ALTER TABLE "browser_challenges" RENAME CONSTRAINT "webauthn_challenges_pkey" TO "browser_challenges_pkey";--> statement-breakpoint
ALTER TABLE "browser_challenges" RENAME CONSTRAINT "webauthn_challenges_user_id_fkey" TO "browser_challenges_user_id_fkey";--> statement-breakpoint
ALTER INDEX "webauthn_challenges_expires_idx" RENAME TO "browser_challenges_expires_idx";--> statement-breakpoint
ALTER TABLE "browser_challenges" ADD COLUMN "purpose" text NOT NULL DEFAULT 'passkey';--> statement-breakpoint
ALTER TABLE "browser_challenges" ALTER COLUMN "purpose" DROP DEFAULT;
