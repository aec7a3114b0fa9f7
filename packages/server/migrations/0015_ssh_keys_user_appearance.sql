-- Preferences (issue 6 item 6): users' SSH public keys (`user__has__public_key`, also `key`),
-- linked social accounts (read-only until social login exists) and the appearance
-- preferences header colour and navigation stripes (private fields of the user, like displays_apps).
CREATE TABLE "user__has__public_key" (
  "id" serial PRIMARY KEY,
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  "user" integer NOT NULL,
  "title" varchar(255) NOT NULL,
  "public_key" text NOT NULL
);
CREATE INDEX "user__has__public_key_user_idx" ON "user__has__public_key" ("user");
ALTER TABLE "user__has__public_key" ADD CONSTRAINT "user__has__public_key_user_fkey" FOREIGN KEY ("user") REFERENCES "user" ("id") ON DELETE CASCADE;

CREATE TABLE "social_service_account" (
  "id" serial PRIMARY KEY,
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  "belongs_to__user" integer NOT NULL,
  "provider" varchar(255) NOT NULL,
  "display_name" varchar(255),
  "remote_id" varchar(255) NOT NULL
);
ALTER TABLE "social_service_account" ADD CONSTRAINT "social_service_account_provider_remote_id_key" UNIQUE ("provider", "remote_id");
CREATE INDEX "social_service_account_belongs_to__user_idx" ON "social_service_account" ("belongs_to__user");
ALTER TABLE "social_service_account" ADD CONSTRAINT "social_service_account_belongs_to__user_fkey" FOREIGN KEY ("belongs_to__user") REFERENCES "user" ("id") ON DELETE CASCADE;

ALTER TABLE "user" ADD COLUMN "header_color" varchar(255) CHECK ("header_color" ~ '^#[0-9a-f]{6}$');
ALTER TABLE "user" ADD COLUMN "shows_navigation_stripes" boolean NOT NULL DEFAULT false;
