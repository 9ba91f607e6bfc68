-- Mail in its reader's language (issue 38): a recipient's language chosen by the sender, a contact's language (the
-- default for that address), a guest's (the language they last used on the collection's page), and each person's
-- own (Settings; the mails they get about their workspace). Null (or '' for a contact, like its other text fields)
-- means nobody chose: the next default applies.
ALTER TABLE "transfer_recipients" ADD COLUMN "language" text;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "language" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "collection_guests" ADD COLUMN "language" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "locale" text;
