-- Passkeys (issue 36): WebAuthn credentials a person signs in with alone, and the challenges of
-- registering and signing in with one.
CREATE TABLE "passkeys" (
  "id" text PRIMARY KEY,
  "user_id" text NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "credential_id" text NOT NULL UNIQUE,
  "public_key" text NOT NULL,
  "counter" bigint NOT NULL DEFAULT 0,
  "transports" text[] NOT NULL DEFAULT '{}',
  "name" text NOT NULL,
  "backed_up" boolean NOT NULL DEFAULT false,
  "created_at" timestamp with time zone NOT NULL,
  "last_used_at" timestamp with time zone
);--> statement-breakpoint
CREATE INDEX "passkeys_user_idx" ON "passkeys" ("user_id");--> statement-breakpoint
CREATE TABLE "webauthn_challenges" (
  "token_hash" text PRIMARY KEY,
  "challenge" text NOT NULL,
  "user_id" text REFERENCES "users"("id") ON DELETE CASCADE,
  "expires_at" timestamp with time zone NOT NULL
);--> statement-breakpoint
CREATE INDEX "webauthn_challenges_expires_idx" ON "webauthn_challenges" ("expires_at");
