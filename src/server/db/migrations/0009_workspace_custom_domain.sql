-- At most one workspace per hostname: the server picks the workspace by the request's Host.
CREATE UNIQUE INDEX "workspaces_custom_domain_key" ON "workspaces" USING btree ("custom_domain") WHERE "workspaces"."custom_domain" is not null;
