-- A workspace can require two-step verification of everyone in it (issue 36): a member without it is
-- sent to set it up, and every other dashboard operation is refused until they have.
ALTER TABLE "workspaces" ADD COLUMN "require_two_step" boolean NOT NULL DEFAULT false;
