-- Issue 12: as in balena, an invite's `invitee` is a foreign key to an `invitee` row holding
-- the e-mail (balena-sdk expands `invitee` to read `email`). One row per address, compared
-- case-insensitively; the existing invites' addresses move there (the first spelling kept).
CREATE TABLE "invitee" (
  "id" serial PRIMARY KEY,
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  "email" varchar(255) NOT NULL
);
CREATE UNIQUE INDEX "invitee_email_ci_key" ON "invitee" (lower("email"));

INSERT INTO "invitee" ("email")
SELECT DISTINCT ON (lower(e)) e FROM (
  SELECT "invitee" AS e, "id" AS n, 1 AS k FROM "invitee__is_invited_to__organization"
  UNION ALL
  SELECT "invitee", "id", 2 FROM "invitee__is_invited_to__application"
) AS addresses
ORDER BY lower(e), k, n;

ALTER TABLE "invitee__is_invited_to__organization" RENAME COLUMN "invitee" TO "invitee_email";
ALTER TABLE "invitee__is_invited_to__organization" ADD COLUMN "invitee" integer;
UPDATE "invitee__is_invited_to__organization" i SET "invitee" = e."id" FROM "invitee" e WHERE lower(e."email") = lower(i."invitee_email");
ALTER TABLE "invitee__is_invited_to__organization" DROP COLUMN "invitee_email";
ALTER TABLE "invitee__is_invited_to__organization" ALTER COLUMN "invitee" SET NOT NULL;

ALTER TABLE "invitee__is_invited_to__application" RENAME COLUMN "invitee" TO "invitee_email";
ALTER TABLE "invitee__is_invited_to__application" ADD COLUMN "invitee" integer;
UPDATE "invitee__is_invited_to__application" i SET "invitee" = e."id" FROM "invitee" e WHERE lower(e."email") = lower(i."invitee_email");
ALTER TABLE "invitee__is_invited_to__application" DROP COLUMN "invitee_email";
ALTER TABLE "invitee__is_invited_to__application" ALTER COLUMN "invitee" SET NOT NULL;

ALTER TABLE "invitee__is_invited_to__organization" ADD CONSTRAINT "invitee__is_invited_to__organization_invitee_fkey" FOREIGN KEY ("invitee") REFERENCES "invitee" ("id") ON DELETE CASCADE;
ALTER TABLE "invitee__is_invited_to__application" ADD CONSTRAINT "invitee__is_invited_to__application_invitee_fkey" FOREIGN KEY ("invitee") REFERENCES "invitee" ("id") ON DELETE CASCADE;
