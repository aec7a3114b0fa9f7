-- The apps feature flag, an appearance preference of each user (spec 1 §2, §3; issue 3).
ALTER TABLE "user" ADD COLUMN "displays_apps" boolean NOT NULL DEFAULT false;
