-- Readable collection links (issue 37): an owner may rename a collection's slug (`/c/spring-lookbook`); every slug it
-- had before keeps redirecting to the current one for as long as the collection exists, and no other collection may
-- take one meanwhile.
CREATE TABLE "collection_former_slugs" (
  "slug" text PRIMARY KEY,
  "collection_id" text NOT NULL REFERENCES "collections"("id") ON DELETE CASCADE,
  "replaced_at" timestamp with time zone NOT NULL
);--> statement-breakpoint
CREATE INDEX "collection_former_slugs_collection_idx" ON "collection_former_slugs" ("collection_id");
