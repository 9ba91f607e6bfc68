-- Dashboard tokens are tied to the session they were minted from, so signing out ends them.
-- Tokens minted before this change have no session: they are deleted (the dashboard mints anew).
DELETE FROM "access_tokens" WHERE "kind" = 'session';--> statement-breakpoint
ALTER TABLE "access_tokens" ADD COLUMN "session_id_hash" text;--> statement-breakpoint
ALTER TABLE "access_tokens" ADD CONSTRAINT "access_tokens_session_id_hash_sessions_id_hash_fk" FOREIGN KEY ("session_id_hash") REFERENCES "public"."sessions"("id_hash") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "access_tokens_session_idx" ON "access_tokens" USING btree ("session_id_hash");--> statement-breakpoint
-- Remembered responses are now sealed; the plain-text ones (which held upload tokens and webhook
-- signing secrets) are forgotten rather than kept readable.
DELETE FROM "idempotency_keys";--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN "response_sealed" text;--> statement-breakpoint
ALTER TABLE "idempotency_keys" DROP COLUMN "response_body";
