-- Searches that read only what they find. `q` matches text anywhere in it (ILIKE '%q%'), which a
-- btree cannot serve; pg_trgm's trigram GIN indexes can. btree_gin lets the same index hold the
-- workspace, so a search reads only its own workspace's matches, not every workspace's. Both are
-- contrib extensions that ship with PostgreSQL (the embedded binaries too) and are trusted: a
-- database owner may create them. Each index is on exactly the text its query matches: a
-- transfer's title and its files' names, a contact's "first last", company and email.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS btree_gin;--> statement-breakpoint
CREATE INDEX "transfers_workspace_title_trgm_idx" ON "transfers" USING gin ("workspace_id","title" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "files_workspace_name_trgm_idx" ON "files" USING gin ("workspace_id","name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "contacts_search_trgm_idx" ON "contacts" USING gin ("workspace_id",("first_name" || ' ' || "last_name") gin_trgm_ops,"company" gin_trgm_ops,"email" gin_trgm_ops);
