-- Fleet access (issue 3): fleet roles, fleet memberships, teams and team fleet access.
-- Generated with scripts/print-schema.ts; the team name index is (organization, lower(name)).
CREATE TABLE "application_membership_role" (
  "id" serial PRIMARY KEY,
  "name" varchar(255) NOT NULL CHECK ("name" IN ('observer', 'operator', 'developer', 'administrator'))
);
ALTER TABLE "application_membership_role" ADD CONSTRAINT "application_membership_role_name_key" UNIQUE ("name");
CREATE TABLE "user_application_membership" (
  "id" serial PRIMARY KEY,
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  "user" integer NOT NULL,
  "is_member_of__application" integer NOT NULL,
  "application_membership_role" integer NOT NULL
);
ALTER TABLE "user_application_membership" ADD CONSTRAINT "user_application_membership_user_is_member_of__application_key" UNIQUE ("user", "is_member_of__application");
CREATE INDEX "user_application_membership_is_member_of__application_idx" ON "user_application_membership" ("is_member_of__application");
CREATE TABLE "team" (
  "id" serial PRIMARY KEY,
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  "name" varchar(255) NOT NULL,
  "belongs_to__organization" integer NOT NULL
);
CREATE UNIQUE INDEX "team_belongs_to__organization_name_ci_key" ON "team" ("belongs_to__organization", lower("name"));
CREATE TABLE "team_membership" (
  "id" serial PRIMARY KEY,
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  "user" integer NOT NULL,
  "is_member_of__team" integer NOT NULL
);
ALTER TABLE "team_membership" ADD CONSTRAINT "team_membership_user_is_member_of__team_key" UNIQUE ("user", "is_member_of__team");
CREATE INDEX "team_membership_is_member_of__team_idx" ON "team_membership" ("is_member_of__team");
CREATE TABLE "team_application_access" (
  "id" serial PRIMARY KEY,
  "team" integer NOT NULL,
  "grants_access_to__application" integer NOT NULL,
  "application_membership_role" integer NOT NULL
);
ALTER TABLE "team_application_access" ADD CONSTRAINT "team_application_access_team_grants_access_to__application_key" UNIQUE ("team", "grants_access_to__application");
CREATE INDEX "team_application_access_grants_access_to__application_idx" ON "team_application_access" ("grants_access_to__application");
ALTER TABLE "user_application_membership" ADD CONSTRAINT "user_application_membership_user_fkey" FOREIGN KEY ("user") REFERENCES "user" ("id") ON DELETE CASCADE;
ALTER TABLE "user_application_membership" ADD CONSTRAINT "user_application_membership_is_member_of__application_fkey" FOREIGN KEY ("is_member_of__application") REFERENCES "application" ("id") ON DELETE CASCADE;
ALTER TABLE "user_application_membership" ADD CONSTRAINT "user_application_membership_application_membership_role_fkey" FOREIGN KEY ("application_membership_role") REFERENCES "application_membership_role" ("id");
ALTER TABLE "team" ADD CONSTRAINT "team_belongs_to__organization_fkey" FOREIGN KEY ("belongs_to__organization") REFERENCES "organization" ("id") ON DELETE CASCADE;
ALTER TABLE "team_membership" ADD CONSTRAINT "team_membership_user_fkey" FOREIGN KEY ("user") REFERENCES "user" ("id") ON DELETE CASCADE;
ALTER TABLE "team_membership" ADD CONSTRAINT "team_membership_is_member_of__team_fkey" FOREIGN KEY ("is_member_of__team") REFERENCES "team" ("id") ON DELETE CASCADE;
ALTER TABLE "team_application_access" ADD CONSTRAINT "team_application_access_team_fkey" FOREIGN KEY ("team") REFERENCES "team" ("id") ON DELETE CASCADE;
ALTER TABLE "team_application_access" ADD CONSTRAINT "team_application_access_grants_access_to__application_fkey" FOREIGN KEY ("grants_access_to__application") REFERENCES "application" ("id") ON DELETE CASCADE;
ALTER TABLE "team_application_access" ADD CONSTRAINT "team_application_access_application_membership_role_fkey" FOREIGN KEY ("application_membership_role") REFERENCES "application_membership_role" ("id");
