-- A person's account no longer belongs to one workspace (issue 35): which workspaces they are in is their
-- memberships alone. The column tied the account to the workspace it was made in, so deleting that workspace
-- would have deleted the account of everyone who had ever made one there, whatever else they belonged to.
-- A sign-in opens the workspace the person joined first, which for the one they made is that one.
ALTER TABLE "users" DROP COLUMN "workspace_id";
